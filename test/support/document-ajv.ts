import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const DOCUMENT_ID = 'https://bvs-mock.local/openapi.json';

/**
 * Validates JSON against schemas of the generated OpenAPI document with Ajv, a
 * JSON Schema validator that knows nothing of zod: an independent second
 * opinion on what the document says.
 */
export class DocumentAjv {
  private readonly ajv: Ajv2020;

  constructor(document: object) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
  }

  /** A validator for the schema at a JSON pointer of the document, as `/webhooks/x/post/...`. */
  at(pointer: string): ValidateFunction {
    const validate = this.ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  }

  /** The request body schema of a webhook. */
  webhook(type: string): ValidateFunction {
    return this.at(`/webhooks/${escape(type)}/post/requestBody/content/application~1json/schema`);
  }

  /** The JSON response schema of an operation. */
  response(path: string, method: string, status: number): ValidateFunction {
    return this.at(`/paths/${escape(path)}/${method}/responses/${status}/content/application~1json/schema`);
  }
}

/** Escapes a key for a JSON pointer. */
function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
