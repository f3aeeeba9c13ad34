import { PDFDocument, StandardFonts, degrees, drawText, rgb, type Color, type PDFFont, type PDFName, type PDFPage } from 'pdf-lib';
import { setReportMetadata, type ReportMetadata } from './report-metadata';
import { toWinAnsi } from './win-ansi';
import { wrapText } from './wrap-text';

/** A4 portrait, in points; margins leave room for the footer. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { left: 50, right: 50, top: 56, bottom: 64 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const FOOTER_Y = 34;
const BODY = 9.5;
const SMALL = 8.5;
const LEADING = 1.3;
const CELL_PADDING = 3;
/** The most lines one table cell or field value may take; more would not fit on a page. */
const MAX_CELL_LINES = Math.floor((PAGE.height - MARGIN.top - MARGIN.bottom) / (BODY * LEADING)) - 6;
/** A heading keeps this much of what follows on its page, so it never ends a page alone. */
const HEADING_KEEP = 70;
/** A subheading keeps room for itself, a table header and one row (or an "empty" line). */
const SUBHEADING_KEEP = 52;

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const RULE = rgb(0.78, 0.78, 0.8);
const HEADER_FILL = rgb(0.92, 0.93, 0.95);

/** The three standard faces a report uses. */
export type FontStyle = 'regular' | 'bold' | 'italic';

/** A column of `TextFlow.table`: its header and its share of the line width (shares are normalized). */
export interface TableColumn {
  /** Printed bold in the header row, repeated on every page the table spans. */
  header: string;
  /** Relative width: columns of width 1 and 3 take a quarter and three quarters of the line. */
  width: number;
}

/** Options of `TextFlow.fields`. */
export interface FieldsOptions {
  /** How many label/value pairs share a line (default 1). */
  columns?: number;
  /** Values in the small table size rather than the body size (default false). */
  compact?: boolean;
}

/** Options of `TextFlow.create`: the document's metadata plus the label printed in every footer. */
export interface TextFlowOptions extends ReportMetadata {
  /** Left part of every page footer; the right part is "page N of M". */
  footer: string;
}

/**
 * Writes a report top to bottom: titles, paragraphs, label/value grids and
 * tables, wrapping lines and starting a new page when one is full, then
 * numbers every page "page N of M" when saved. All three report renderers use
 * it, so wrapping, pagination and determinism live in one place. Every string
 * goes through `toWinAnsi`, so client text never makes a standard font throw.
 *
 * @example
 * const flow = await TextFlow.create({ title: 'Doc', subject: 'doc_1', generatedAt, footer: 'doc_1' });
 * flow.title('Doc');
 * flow.paragraph('Hello');
 * const bytes = await flow.save();
 */
export class TextFlow {
  private page!: PDFPage;
  private y = 0;
  /** Font resource names per page: pdf-lib's `drawText({ font })` adds a new one on every call. */
  private readonly fontKeys = new Map<PDFPage, Map<PDFFont, PDFName>>();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Record<FontStyle, PDFFont>,
    private readonly footer: string,
  ) {
    this.newPage();
  }

  /** Starts a document with deterministic metadata (see `setReportMetadata`) and one empty page. */
  static async create(options: TextFlowOptions): Promise<TextFlow> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    setReportMetadata(doc, options);
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    };
    return new TextFlow(doc, fonts, options.footer);
  }

  /** The document title, large. */
  title(text: string): void {
    this.lines(text, { style: 'bold', size: 18, width: CONTENT_WIDTH });
    this.space(4);
  }

  /** A section heading with a rule under it; moves to a new page when too little room is left. */
  heading(text: string): void {
    this.space(10);
    this.ensure(HEADING_KEEP);
    this.lines(text, { style: 'bold', size: 12.5, width: CONTENT_WIDTH });
    this.page.drawLine({ start: { x: MARGIN.left, y: this.y + 2 }, end: { x: MARGIN.left + CONTENT_WIDTH, y: this.y + 2 }, thickness: 0.6, color: RULE });
    this.space(5);
  }

  /** A small bold label above a table or list. */
  subheading(text: string): void {
    this.space(4);
    this.ensure(SUBHEADING_KEEP);
    this.lines(text, { style: 'bold', size: BODY, width: CONTENT_WIDTH });
    this.space(1);
  }

  /** Wrapped text; each `\n` starts a new line and an empty line leaves a blank one. */
  paragraph(text: string, style: FontStyle = 'regular', color: Color = INK): void {
    for (const line of String(text).split(/\r\n|\r|\n/)) this.lines(line, { style, size: BODY, width: CONTENT_WIDTH, color });
  }

  /**
   * Label/value pairs, `columns` pairs side by side; long values wrap under
   * themselves. `compact` sets values in the table size, so two standard ids
   * (about 30 characters) fit side by side.
   */
  fields(pairs: Array<[label: string, value: string]>, options: FieldsOptions = {}): void {
    const columns = options.columns ?? 1;
    const size = options.compact ? SMALL : BODY;
    const lineHeight = size * LEADING;
    const slot = CONTENT_WIDTH / columns;
    const labelWidth = columns === 1 ? 120 : 74;
    for (let i = 0; i < pairs.length; i += columns) {
      const cells = pairs.slice(i, i + columns).map(([label, value]) => ({
        label: this.wrap(label, 'bold', SMALL, labelWidth - 4),
        value: clip(this.wrap(value, 'regular', size, slot - labelWidth - 6)),
      }));
      const height = Math.max(...cells.map((c) => Math.max(c.label.length, c.value.length))) * lineHeight;
      this.ensure(height);
      cells.forEach((cell, index) => {
        const x = MARGIN.left + index * slot;
        // Labels are smaller than body values; dropping them by the difference keeps both on one baseline.
        this.drawLines(cell.label, x, this.y - (size - SMALL) * 0.92, 'bold', SMALL, MUTED, lineHeight);
        this.drawLines(cell.value, x + labelWidth, this.y, 'regular', size, INK, lineHeight);
      });
      this.y -= height + 1;
    }
  }

  /** A table whose header repeats on every page it spans; `empty` is written instead when there are no rows. */
  table(columns: TableColumn[], rows: string[][], empty: string): void {
    if (rows.length === 0) {
      this.paragraph(empty, 'italic', MUTED);
      return;
    }
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * CONTENT_WIDTH);
    const lineHeight = SMALL * LEADING;
    const layout = (cells: string[], style: FontStyle) => widths.map((width, i) => clip(this.wrap(cells[i] ?? '', style, SMALL, width - 2 * CELL_PADDING)));
    const heightOf = (cells: string[][]) => Math.max(...cells.map((c) => c.length)) * lineHeight + 2 * CELL_PADDING;
    const header = layout(
      columns.map((c) => c.header),
      'bold',
    );
    const drawRow = (cells: string[][], style: FontStyle, fill?: Color) => {
      const height = heightOf(cells);
      if (fill) this.page.drawRectangle({ x: MARGIN.left, y: this.y - height, width: CONTENT_WIDTH, height, color: fill });
      let x = MARGIN.left;
      cells.forEach((lines, i) => {
        this.drawLines(lines, x + CELL_PADDING, this.y - CELL_PADDING, style, SMALL, INK, lineHeight);
        x += widths[i] ?? 0;
      });
      this.y -= height;
      this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: MARGIN.left + CONTENT_WIDTH, y: this.y }, thickness: 0.4, color: RULE });
    };
    const body = rows.map((row) => layout(row, 'regular'));
    this.ensure(heightOf(header) + heightOf(body[0] ?? header));
    drawRow(header, 'bold', HEADER_FILL);
    for (const cells of body) {
      if (this.y - heightOf(cells) < MARGIN.bottom) {
        this.newPage();
        drawRow(header, 'bold', HEADER_FILL);
      }
      drawRow(cells, 'regular');
    }
  }

  /** Vertical space, in points; none at the top of a page, and never carried over to the next one. */
  space(points: number): void {
    if (this.atPageTop()) return;
    this.y = Math.max(this.y - points, MARGIN.bottom);
  }

  /**
   * Numbers the pages and serializes; call it once, last. Nothing random or wall-clock goes in:
   * metadata dates come from `generatedAt`, pdf-lib's resource-name suffixes
   * come from a generator seeded per document, a new document has no trailer
   * /ID, and form appearances are not regenerated (there is no form).
   */
  async save(): Promise<Uint8Array> {
    const pages = this.doc.getPages();
    const footer = this.wrap(this.footer, 'regular', SMALL, CONTENT_WIDTH * 0.7)[0] ?? '';
    pages.forEach((page, index) => {
      const number = `page ${index + 1} of ${pages.length}`;
      const right = MARGIN.left + CONTENT_WIDTH - this.fonts.regular.widthOfTextAtSize(number, SMALL);
      page.drawLine({ start: { x: MARGIN.left, y: FOOTER_Y + 12 }, end: { x: MARGIN.left + CONTENT_WIDTH, y: FOOTER_Y + 12 }, thickness: 0.4, color: RULE });
      this.drawLines([footer], MARGIN.left, FOOTER_Y + SMALL, 'regular', SMALL, MUTED, SMALL, page);
      this.drawLines([number], right, FOOTER_Y + SMALL, 'regular', SMALL, MUTED, SMALL, page);
    });
    return this.doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  }

  private lines(text: string, options: { style: FontStyle; size: number; width: number; color?: Color }): void {
    const lineHeight = options.size * LEADING;
    for (const line of this.wrap(text, options.style, options.size, options.width)) {
      this.ensure(lineHeight);
      this.drawLines([line], MARGIN.left, this.y, options.style, options.size, options.color ?? INK, lineHeight);
      this.y -= lineHeight;
    }
  }

  private wrap(text: string, style: FontStyle, size: number, width: number): string[] {
    const font = this.fonts[style];
    return wrapText(toWinAnsi(text), (s) => font.widthOfTextAtSize(s, size), width);
  }

  /** Draws already wrapped lines downward from `top` (the top of the first line). */
  private drawLines(lines: string[], x: number, top: number, style: FontStyle, size: number, color: Color, lineHeight: number, page = this.page): void {
    const font = this.fonts[style];
    lines.forEach((line, i) => {
      if (line === '') return;
      const y = top - i * lineHeight - size * 0.92;
      page.pushOperators(
        ...drawText(font.encodeText(line), { color, font: this.fontKey(page, font), size, x, y, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }),
      );
    });
  }

  private fontKey(page: PDFPage, font: PDFFont): PDFName {
    const keys = this.fontKeys.get(page) ?? new Map<PDFFont, PDFName>();
    this.fontKeys.set(page, keys);
    const key = keys.get(font) ?? page.node.newFontDictionary(font.name, font.ref);
    keys.set(font, key);
    return key;
  }

  /** Starts a new page unless `height` fits; content taller than a whole page starts on a fresh one and flows on. */
  private ensure(height: number): void {
    if (this.y - height < MARGIN.bottom && !this.atPageTop()) this.newPage();
  }

  private atPageTop(): boolean {
    return this.y >= PAGE.height - MARGIN.top;
  }

  private newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN.top;
  }
}

/** Cuts a value taller than a page, so one absurd client string cannot run off the page it starts on. */
function clip(lines: string[]): string[] {
  return lines.length <= MAX_CELL_LINES ? lines : [...lines.slice(0, MAX_CELL_LINES - 1), '...'];
}
