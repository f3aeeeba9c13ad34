import type { PDFDocument } from 'pdf-lib';

/** What a report says about itself in the PDF information dictionary. */
export interface ReportMetadata {
  /** Document title, shown by viewers in the window title bar. */
  title: string;
  /** One sentence naming what the report covers (ids included). */
  subject: string;
  /** ISO timestamp from the simulated clock; becomes the creation and modification dates. */
  generatedAt: string;
}

/** Producer and creator of every report, so a file names the mock, not the real service. */
const REPORT_PRODUCER = 'bvs-mock';

/**
 * Writes the information dictionary of a report. The document must come from
 * `PDFDocument.create({ updateMetadata: false })`: otherwise pdf-lib stamps the
 * wall-clock time and its own producer at save, and the same report asked twice
 * would differ. The dates follow the simulated clock instead (spec §6 rule 5:
 * a report is generated when the tree completes in simulated time). A
 * `generatedAt` that is not a valid date leaves the dates out rather than
 * failing the report.
 */
export function setReportMetadata(doc: PDFDocument, meta: ReportMetadata): void {
  doc.setTitle(meta.title, { showInWindowTitleBar: true });
  doc.setSubject(meta.subject);
  doc.setProducer(REPORT_PRODUCER);
  doc.setCreator(REPORT_PRODUCER);
  const at = new Date(meta.generatedAt);
  if (Number.isNaN(at.getTime())) return;
  doc.setCreationDate(at);
  doc.setModificationDate(at);
}
