import { wrapText } from '../../src/reports/wrap-text';

/** Every character 1 point wide, so widths are lengths. */
const measure = (s: string) => s.length;

describe('wrapText', () => {
  it('breaks at spaces, keeping each line within the width', () => {
    expect(wrapText('Comercial Andes SpA limitada', measure, 15)).toEqual(['Comercial Andes', 'SpA limitada']);
  });

  it('breaks inside a word only when the word alone is wider than a line', () => {
    expect(wrapText('id evl_0123456789ABCDEF', measure, 8)).toEqual(['id', 'evl_0123', '456789AB', 'CDEF']);
  });

  it('returns one empty line for empty text', () => {
    expect(wrapText('', measure, 10)).toEqual(['']);
  });

  it('collapses runs of spaces', () => {
    expect(wrapText('a   b', measure, 10)).toEqual(['a b']);
  });
});
