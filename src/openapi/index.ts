/** The OpenAPI 3.1 document of the service, built from the zod schemas. */
export { buildOpenApiDocument, type OpenApiDocument } from './build-document';
export { buildControlDocument } from './build-control-document';
export { documentToJson, documentToYaml } from './serialize-document';
;
;
export { errorsOf } from './register-routes';
