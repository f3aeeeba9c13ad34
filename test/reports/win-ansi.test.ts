import { PDFDocument, StandardFonts } from 'pdf-lib';
import { isWinAnsi, toWinAnsi } from '../../src/reports/win-ansi';

describe('toWinAnsi', () => {
  it('accepts exactly the characters pdf-lib can encode with each standard text font', async () => {
    const doc = await PDFDocument.create();
    for (const name of [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique]) {
      const font = await doc.embedFont(name);
      const encodable = new Set(font.getCharacterSet());
      const disagreements: number[] = [];
      for (let codePoint = 0; codePoint <= 0xffff; codePoint += 1) if (isWinAnsi(codePoint) !== encodable.has(codePoint)) disagreements.push(codePoint);
      expect(disagreements).toEqual([]);
    }
  });

  it('keeps Spanish text as it is', () => {
    expect(toWinAnsi('Compañía Ñandú: ¿qué? ¡Sí! áéíóú ÁÉÍÓÚ ü €')).toBe('Compañía Ñandú: ¿qué? ¡Sí! áéíóú ÁÉÍÓÚ ü €');
  });

  it('composes decomposed accents before checking them', () => {
    expect(toWinAnsi('Mun\u0303oz')).toBe('Muñoz');
  });

  it('replaces each code point outside WinAnsi with one ?, including emoji and lone surrogates', () => {
    expect(toWinAnsi('北京 🚀 \uD800x \u0007')).toBe('?? ? ?x ?');
  });

  it('turns tabs and line breaks into spaces', () => {
    expect(toWinAnsi('a\tb\nc\r\nd')).toBe('a b c  d');
  });
});
