import { PDFDocument } from 'pdf-lib';
import { renderConsolidatedReportPdf } from '../../src/reports';
import { DataSourceRunBatch, EntityValidation, examplePartnerBatch } from '../../src/schemas';
import { pageTexts } from './pdf-text';
import { GENERATED_AT, smallTree, treeWithPartners, type Tree } from './report-fixtures';

const render = (tree: Tree) => renderConsolidatedReportPdf({ ...tree, generatedAt: GENERATED_AT });
const allText = async (tree: Tree) => (await pageTexts(await render(tree))).join('\n');

describe('renderConsolidatedReportPdf', () => {
  it('fits the spec example (one partner) on one page', async () => {
    const doc = await PDFDocument.load(await render(smallTree()));
    expect(doc.getPageCount()).toBe(1);
  });

  it('prints the main entity, the validation and batch ids and the generation time', async () => {
    const text = await allText(smallTree());
    for (const expected of [
      'Comercial Andes SpA',
      '76086428-5',
      'CL',
      'business',
      'evl_01JD5ZQ8K3M7T2XW9Y4B6C1N0P',
      'dsrb_01JD5ZQ8M0N1P2Q3R4S5T6V7W8',
      '2026-01-15 10:02:00 UTC',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("prints each batch's runs and alerts, with the partner's identity read from related_entities", async () => {
    const text = await allText(smallTree());
    expect(text).toContain('Partner 1: Ana Rojas');
    expect(text).toContain('12345678-5');
    expect(text).toContain('cl/sii\nsucceeded\n2026-01-15 10:00:00 UTC\n2026-01-15 10:00:20 UTC');
    expect(text).toContain('cl/pep');
    expect(text).toContain('Tax debt\nmedium');
    expect(text).toContain('Politically exposed person\nhigh');
  });

  it('sums the alerts of the whole tree by severity and says whether every batch succeeded', async () => {
    const text = await allText(smallTree());
    expect(text).toContain('critical\n0\nhigh\n1\nmedium\n1\nlow\n0\ntotal\n2');
    expect(text).toContain('All runs succeeded\nyes, in every batch');
  });

  it('names the batches whose runs did not all succeed', async () => {
    const text = await allText(treeWithPartners(10));
    expect(text).toContain('no, in 2 of 11 batches');
    expect(text).toContain('Main entity (dsrb_01JD5ZQ8M0N1P2Q3R4S5T6V7W8), Partner 7 (dsrb_PARTNER007)');
  });

  it('falls back to the tin for a partner missing from related_entities', async () => {
    const { validation, batch } = smallTree();
    const tree = { validation: EntityValidation.parse({ ...validation, related_entities: [] }), batch };
    expect(await allText(tree)).toContain('Partner 1: TIN 12345678-5');
  });

  it('walks partners of partners depth first, numbering them under their parent', async () => {
    const { validation, batch } = smallTree();
    const grandchild = {
      ...examplePartnerBatch(),
      id: 'dsrb_GRANDCHILD',
      entity_validation_id: 'evl_GRANDCHILD',
      tin: '99999999-9',
      parent_batch_id: batch.child_batches[0]!.id,
      raised_alerts: [],
    };
    const partner = { ...batch.child_batches[0]!, child_batches: [grandchild] };
    const deep = DataSourceRunBatch.parse({ ...batch, child_batches: [partner] });
    const text = await allText({ validation, batch: deep });
    expect(text.indexOf('Partner 1: Ana Rojas')).toBeLessThan(text.indexOf('Partner 1.1: TIN 99999999-9'));
    expect(text.indexOf('Partner 1.1: TIN 99999999-9')).toBeLessThan(text.indexOf('Summary'));
  });

  it('paginates a 50-partner tree and numbers every page "page N of M"', async () => {
    const texts = await pageTexts(await render(treeWithPartners(50)));
    expect(texts.length).toBeGreaterThanOrEqual(5);
    texts.forEach((text, index) => expect(text).toContain(`page ${index + 1} of ${texts.length}`));
    const text = texts.join('\n');
    for (let i = 1; i <= 50; i += 1) expect(text).toContain(`Partner ${i}: Socio ${String(i).padStart(3, '0')} Muñoz Ávila`);
    expect(text).toContain('Alert of partner 048');
    expect(texts[texts.length - 1]).toContain('Summary');
  });

  it('never ends a page with a heading whose content moved to the next page', async () => {
    const texts = await pageTexts(await render(treeWithPartners(50)));
    for (const text of texts) {
      const lines = text.split('\n');
      const lastBody = lines[lines.length - 3] ?? '';
      expect(lastBody).not.toMatch(/^Partner \d+:|^Data source runs$|^Raised alerts$/);
    }
  });
});
