import { PDFDocument } from 'pdf-lib';
import { renderLegalReportPdf } from '../../src/reports';
import { Formation } from '../../src/schemas';
import { pageTexts } from './pdf-text';
import { GENERATED_AT, formation } from './report-fixtures';

const allText = async (f: Formation) => (await pageTexts(await renderLegalReportPdf({ formation: f, generatedAt: GENERATED_AT }))).join('\n');

describe('renderLegalReportPdf', () => {
  it('fits the spec example formation on one page', async () => {
    const doc = await PDFDocument.load(await renderLegalReportPdf({ formation: formation(), generatedAt: GENERATED_AT }));
    expect(doc.getPageCount()).toBe(1);
  });

  it("prints the company's societary data, administration and equity", async () => {
    const text = await allText(formation());
    for (const expected of [
      'Company name\nComercial Andes SpA',
      'Fantasy name\nAndes',
      'TIN\n76086428-5',
      'Company type\nSociedad por Acciones',
      'Constitution date\n2019-03-04',
      'Registry\nRegistro de Empresas y Sociedades',
      'Duration\nindefinite',
      'Activity\nWholesale of food products',
      'Administration\ngeneral_manager',
      'Simple signature\nyes',
      'Equity\n10,000,000 CLP',
      'Total shares\n1,000',
      'Shares type\nordinary',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('prints each stakeholder with roles, UBO flag, participation as a percentage, shares, amount and present faculties', async () => {
    const f = formation();
    f.stakeholders[0]!.faculties.push({ key: 'sell_assets', code: 'F03', present: false });
    const text = await allText(f);
    expect(text).toMatch(/Ana Rojas\n12345678-5\nshareholder,\ngeneral manager\nyes\n100%\n1,000\n10,000,000\nF01 open bank/);
    expect(text).toContain('F02 sign');
    expect(text).not.toContain('F03');
  });

  it('writes a fractional participation with at most two decimals', async () => {
    const f = formation();
    f.stakeholders[0]!.participation = 1 / 3;
    expect(await allText(Formation.parse(f))).toContain('\n33.33%\n');
  });

  it('lists the documents with name, label and CVE, and the manual review flag and codes', async () => {
    const f = Formation.parse({ ...formation(), requires_manual_review: true, manual_review_codes: ['MR01', 'MR02'], fantasy_name: null });
    const text = await allText(f);
    expect(text).toContain('constitution.pdf\nConstitution deed\nCVE-2019-0304-AB12');
    expect(text).toContain('Requires manual review\nyes');
    expect(text).toContain('Review codes\nMR01, MR02');
    expect(text).toContain('Fantasy name\n-');
  });

  it('repeats the stakeholder table header on every page it spans', async () => {
    const f = formation();
    f.stakeholders = Array.from({ length: 60 }, (_, i) => ({ ...f.stakeholders[0]!, display_name: `Accionista ${i} Peña`, participation: 1 / 60 }));
    const texts = await pageTexts(await renderLegalReportPdf({ formation: Formation.parse(f), generatedAt: GENERATED_AT }));
    expect(texts.length).toBeGreaterThan(2);
    const withRows = texts.filter((text) => text.includes('Accionista'));
    expect(withRows.length).toBeGreaterThan(1);
    for (const text of withRows) expect(text).toContain('Name\nTIN\nRoles\nUBO');
    expect(texts.join('\n')).toContain('Accionista 59 Peña');
  });
});
