import { PDFDocument } from 'pdf-lib';
import { renderDocumentPdf } from '../../src/reports';
import { pageTexts } from './pdf-text';
import { GENERATED_AT } from './report-fixtures';

describe('renderDocumentPdf', () => {
  it('prints the title, the id and every line', async () => {
    const bytes = await renderDocumentPdf({
      id: 'doc_01JD5ZT0A1',
      title: 'Constitution deed',
      lines: ['Escritura de constitución de Comercial Andes SpA', '', 'Artículo 1: Razón social.'],
      generatedAt: GENERATED_AT,
    });
    const text = (await pageTexts(bytes)).join('\n');
    expect(text).toContain('Constitution deed');
    expect(text).toContain('doc_01JD5ZT0A1');
    expect(text).toContain('Escritura de constitución de Comercial Andes SpA\nArtículo 1: Razón social.');
  });

  it('flows long documents over several numbered pages, wrapping long lines', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => `Cláusula ${i + 1}. ${'El capital social se divide en acciones ordinarias. '.repeat(i % 4)}`);
    const bytes = await renderDocumentPdf({ id: 'doc_LONG', title: 'Constitution deed', lines, generatedAt: GENERATED_AT });
    const doc = await PDFDocument.load(bytes);
    const texts = await pageTexts(bytes);
    expect(doc.getPageCount()).toBe(texts.length);
    expect(texts.length).toBeGreaterThan(2);
    texts.forEach((text, index) => expect(text).toContain(`page ${index + 1} of ${texts.length}`));
    expect(texts.join('\n')).toContain('Cláusula 150.');
  });

  it('renders an empty document as one page with its title', async () => {
    const bytes = await renderDocumentPdf({ id: 'doc_EMPTY', title: 'Bank certificate', lines: [], generatedAt: GENERATED_AT });
    expect(await pageTexts(bytes)).toEqual([expect.stringContaining('Bank certificate')]);
  });

  it('leaves the PDF dates out rather than failing when generatedAt is not a date', async () => {
    const bytes = await renderDocumentPdf({ id: 'doc_1', title: 'T', lines: ['x'], generatedAt: 'not a date' });
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getCreationDate()).toBeUndefined();
    expect(doc.getTitle()).toBe('T');
  });
});
