/** Contract checks of payloads against the schemas. */
export { SCHEMA_CATALOG, SCHEMA_NAMES } from './schema-catalog';
export { validatePayload, type PayloadCheck } from './validate-payload';
export { closedIssues } from './closed-check';
export { buildContractReport, type ContractReport, type ContractReportSources } from './contract-report';
export {
  REPORT_FORMATS,
  REPORT_MEDIA_TYPES,
  formatOfFile,
  junitXml,
  renderMergedReport,
  renderReport,
  type Case,
  type NamedReport,
  type ReportFormat,
} from './report-formats';
