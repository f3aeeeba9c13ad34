import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';

/**
 * The text drawn on each page of a PDF, one string per page. pdf-lib writes
 * standard-font text as hex strings (`<48656C6C6F> Tj`) inside Flate-compressed
 * content streams, so this inflates each stream and decodes the hex strings
 * from WinAnsi. Text drawn on one line is joined with spaces, lines with `\n`.
 */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const refs: PDFObject[] = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    const source = refs
      .map((ref) => doc.context.lookup(ref))
      .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
      .map((stream) => {
        const flate = stream.dict.get(PDFName.of('Filter')) === PDFName.of('FlateDecode');
        return Buffer.from(flate ? inflateSync(stream.contents) : stream.contents).toString('latin1');
      })
      .join('\n');
    return [...source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((match) => decodeWinAnsi(Buffer.from(match[1] ?? '', 'hex'))).join('\n');
  });
}

/**
 * Windows-1252 bytes 0x80 to 0x9F (undefined bytes as U+FFFD); the rest is Latin-1. Written out because
 * Node's TextDecoder('windows-1252') decodes this range as Latin-1 control characters.
 */
const CP1252_80_9F = '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ';

function decodeWinAnsi(bytes: Buffer): string {
  return [...bytes].map((byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_80_9F[byte - 0x80] : String.fromCharCode(byte))).join('');
}
