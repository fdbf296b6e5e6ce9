/**
 * A small reStructuredText highlighter for CodeMirror 6. @codemirror/legacy-modes
 * has no rst mode, and there is no Lezer grammar for rst on npm, so this is a
 * line-oriented stream parser for the constructs a writer most needs to see:
 * section adornments, explicit markup (directives, targets, footnotes,
 * substitutions, comments), field lists, literal blocks and inline markup.
 * It only colours text; docutils (through /check) is the judge of syntax.
 */
import { StreamLanguage, type StringStream } from '@codemirror/language';

interface RstState {
  /** Indentation of the paragraph that ended with "::", while its literal block may follow. */
  literalAfter: number | null;
  /** Indentation the current literal block must stay beyond, while inside it. */
  literalBase: number | null;
}

const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;
const BULLET = /^\s*([-*+•‣⁃]|\d+[.)]|#\.|\(?[a-zA-Z0-9]\)|[ivxlcdm]+\.)\s+/;

function inline(stream: StringStream): string | null {
  if (stream.match(/^``.+?``/)) return 'monospace';
  if (stream.match(/^\*\*[^*\s](?:.*?[^\s])?\*\*/)) return 'strong';
  if (stream.match(/^\*[^*\s](?:.*?[^\s])?\*/)) return 'emphasis';
  if (stream.match(/^:[\w.+-]+:(?=`)/)) return 'keyword';
  if (stream.match(/^`[^`]+`__?/)) return 'link';
  if (stream.match(/^`[^`]+`(?::[\w.+-]+:)?/)) return 'string';
  if (stream.match(/^\[(?:\d+|#[\w-]*|\*|[\w.-]+)\]_/)) return 'link';
  if (stream.match(/^\|[^|\s](?:[^|]*[^|\s])?\|_{0,2}/)) return 'atom';
  if (stream.match(/^https?:\/\/[^\s<>]+[^\s<>.,;:!?)]/)) return 'link';
  if (stream.match(/^[\w.-]+__?(?![\w])/)) {
    // A bare word ending with "_" is a reference; other words are plain.
    return /_$/.test(stream.current()) ? 'link' : null;
  }
  stream.next();
  return null;
}

export const rstLanguage = StreamLanguage.define<RstState>({
  name: 'rst',
  startState: () => ({ literalAfter: null, literalBase: null }),
  copyState: (s) => ({ ...s }),
  blankLine(state) {
    if (state.literalAfter !== null) {
      state.literalBase = state.literalAfter;
      state.literalAfter = null;
    }
  },
  token(stream, state) {
    if (stream.sol()) {
      const indent = stream.indentation();
      if (state.literalBase !== null) {
        if (indent > state.literalBase) {
          stream.skipToEnd();
          return 'monospace';
        }
        state.literalBase = null;
      }
      // Lines indented under a "::" line (a directive's options) keep the
      // literal block coming; anything else cancels it.
      if (state.literalAfter !== null && indent <= state.literalAfter) state.literalAfter = null;
      if (stream.match(ADORNMENT)) return 'heading';
      if (stream.match(/^\s*\.\.\s+[\w:.+-]+::/)) {
        // A directive such as "code" takes a literal body after its options.
        if (/::\s*$/.test(stream.string) || /^\s*\.\.\s+(code|code-block|sourcecode|math|parsed-literal)::/.test(stream.string)) state.literalAfter = indent;
        return 'keyword';
      }
      if (stream.match(/^\s*\.\.\s+_[^:]*:/) || stream.match(/^\s*__\s/)) return 'labelName';
      if (stream.match(/^\s*\.\.\s+\[[^\]]+\]/)) return 'labelName';
      if (stream.match(/^\s*\.\.\s+\|[^|]+\|\s+[\w-]+::/)) return 'atom';
      if (stream.match(/^\s*\.\.(\s|$)/)) {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.match(/^\s*:[^:\s][^:]*:(?=\s|$)/)) return 'propertyName';
      if (stream.match(BULLET)) return 'list';
      if (/::\s*$/.test(stream.string)) state.literalAfter = indent;
    }
    return inline(stream);
  },
});
