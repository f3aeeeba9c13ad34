import { formatTimestamp } from './report-format';
import { TextFlow } from './text-flow';

/** What `renderDocumentPdf` needs. */
export interface DocumentPdfInput {
  /** The document's id (`doc_...`), printed under the title and in the footer. */
  id: string;
  /** Title of the document, like "Constitution deed". */
  title: string;
  /** Body text, one entry per line; long lines wrap and an empty entry leaves a blank line. */
  lines: string[];
  /** ISO timestamp from the simulated clock; printed and used as the PDF dates. */
  generatedAt: string;
}

/**
 * Renders a plain text document as PDF bytes, over as many pages as the lines
 * need. The mock serves these behind pre-signed document URLs: formation
 * documents such as the constitution deed (spec §2, Formation `documents`)
 * and the documents of requestable items. The same input gives the same bytes.
 *
 * @example
 * const pdf = await renderDocumentPdf({ id: 'doc_01JD5ZT0A1', title: 'Constitution deed', lines: ['...'], generatedAt: clock.iso() });
 */
export async function renderDocumentPdf(input: DocumentPdfInput): Promise<Uint8Array> {
  const flow = await TextFlow.create({
    title: input.title,
    subject: `Document ${input.id}`,
    generatedAt: input.generatedAt,
    footer: `${input.title} - ${input.id}`,
  });
  flow.title(input.title);
  flow.fields([
    ['Document id', input.id],
    ['Generated at', formatTimestamp(input.generatedAt)],
  ]);
  flow.space(12);
  for (const line of input.lines) flow.paragraph(line);
  return flow.save();
}
