/**
 * Characters the engine could not typeset. The LaTeX format sets
 * \tracinglostchars=2, so pdfTeX and LuaHBTeX write one "Missing character"
 * line into the log for each character a font lacks, and drop the character. The
 * Python side already shows every character no shipped font has as a
 * placeholder (python/rst2/scripts.py); a line here means its table and a
 * font disagree, so it is counted with the placeholders and logged.
 */

// pdfTeX: `... no X in font cmr10!`; LuaHBTeX: `... no X (U+0058) in font "name:...;"!`.
const MISSING = /^Missing character: There is no (.+?) in font (?:"([^"]+)"|([^!\s]+))!/;

export interface LostCharacters {
  count: number;
  /** A few of the log lines' "<character> in <font>", for the service log. */
  samples: string[];
}

export function lostCharacters(log: string, keep = 5): LostCharacters {
  let count = 0;
  const samples: string[] = [];
  for (const line of log.split('\n')) {
    const m = MISSING.exec(line);
    if (!m) continue;
    count++;
    if (samples.length < keep) samples.push(`${m[1]} in ${m[2] ?? m[3]}`);
  }
  return { count, samples };
}
