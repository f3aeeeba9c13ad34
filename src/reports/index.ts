/**
 * The files bvs-mock serves behind pre-signed URLs: the consolidated report of
 * a validation tree, the legal report of a formation and plain documents, as
 * real PDF files, plus the URL signer. Nothing here imports the engine or the
 * HTTP layer; callers hand in API-shaped data and a simulated-clock timestamp.
 */
export * from './url-signer';
export { renderConsolidatedReportPdf, type ConsolidatedReportInput } from './consolidated-report-pdf';
export { renderLegalReportPdf, type LegalReportInput } from './legal-report-pdf';
export { renderDocumentPdf, type DocumentPdfInput } from './document-pdf';
