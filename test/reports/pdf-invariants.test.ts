import { PDFDocument } from 'pdf-lib';
import { renderConsolidatedReportPdf, renderDocumentPdf, renderLegalReportPdf } from '../../src/reports';
import { pageTexts } from './pdf-text';
import { GENERATED_AT, formation, smallTree } from './report-fixtures';

/** Text no standard PDF font can encode: emoji (surrogate pairs), CJK, a lone surrogate, controls. */
const ODD = 'Empresa 🚀 北京有限公司 \uD800 tab\there\u0000 e\u0301 — “ok”';

/** Every renderer, with a normal input and one full of odd text; the invariants below hold for all. */
const RENDERERS: Array<{ name: string; title: string; render: () => Promise<Uint8Array>; odd: () => Promise<Uint8Array> }> = [
  {
    name: 'consolidated report',
    title: 'Consolidated report: Comercial Andes SpA',
    render: () => renderConsolidatedReportPdf({ ...smallTree(), generatedAt: GENERATED_AT }),
    odd: () => {
      const { validation, batch } = smallTree();
      validation.display_name = ODD;
      validation.related_entities[0]!.display_name = ODD;
      batch.raised_alerts[0]!.name = ODD;
      return renderConsolidatedReportPdf({ validation, batch, generatedAt: GENERATED_AT });
    },
  },
  {
    name: 'legal report',
    title: 'Legal report: Comercial Andes SpA',
    render: () => renderLegalReportPdf({ formation: formation(), generatedAt: GENERATED_AT }),
    odd: () => {
      const f = formation();
      f.name = ODD;
      f.fantasy_name = ODD;
      f.stakeholders[0]!.display_name = ODD;
      f.documents[0]!.label = ODD;
      return renderLegalReportPdf({ formation: f, generatedAt: GENERATED_AT });
    },
  },
  {
    name: 'document',
    title: 'Constitution deed',
    render: () =>
      renderDocumentPdf({
        id: 'doc_01JD5ZT0A1',
        title: 'Constitution deed',
        lines: ['Escritura de constitución', '', 'Artículo 1'],
        generatedAt: GENERATED_AT,
      }),
    odd: () => renderDocumentPdf({ id: 'doc_01JD5ZT0A1', title: ODD, lines: [ODD, `${ODD}\n${ODD}`], generatedAt: GENERATED_AT }),
  },
];

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe.each(RENDERERS)('$name', ({ title, render, odd }) => {
  it('returns bytes that start with %PDF- and end with %%EOF', async () => {
    const text = latin1(await render());
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text).toMatch(/%%EOF\n?$/);
  });

  it('parses with pdf-lib and carries title, bvs-mock as producer and creator, and generatedAt as its dates', async () => {
    const doc = await PDFDocument.load(await render(), { updateMetadata: false });
    expect(doc.getTitle()).toBe(title);
    expect(doc.getSubject()).toEqual(expect.any(String));
    expect(doc.getProducer()).toBe('bvs-mock');
    expect(doc.getCreator()).toBe('bvs-mock');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-01-15T10:02:00.000Z');
    expect(doc.getModificationDate()?.toISOString()).toBe('2026-01-15T10:02:00.000Z');
  });

  it('gives identical bytes for the same input, whatever the wall clock and Math.random say', async () => {
    const first = await render();
    jest.useFakeTimers({
      now: new Date('2031-07-04T12:00:00.000Z'),
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask'],
    });
    const random = jest.spyOn(Math, 'random').mockReturnValue(0.123456);
    try {
      expect(Buffer.from(await render()).equals(Buffer.from(first))).toBe(true);
    } finally {
      random.mockRestore();
      jest.useRealTimers();
    }
  });

  it('writes no trailer /ID, which pdf-lib could only fill with something unstable', async () => {
    expect(latin1(await render())).not.toMatch(/\/ID\s*\[/);
  });

  it('numbers its one page "page 1 of 1"', async () => {
    expect(await pageTexts(await render())).toEqual([expect.stringContaining('page 1 of 1')]);
  });

  it('renders emoji, CJK and control characters as ? instead of throwing', async () => {
    const texts = (await pageTexts(await odd())).join('\n');
    expect(texts).toContain('Empresa ? ?????? ? tab here? é — “ok”');
  });
});
