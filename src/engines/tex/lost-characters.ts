/**
 * Characters pdfTeX could not typeset. The LaTeX format sets
 * \tracinglostchars=2, so pdfTeX writes one "Missing character" line into the
 * log for each character its font lacks, and drops the character. The
 * Python side already shows every character no shipped font has as a
 * placeholder (python/rst2/scripts.py); a line here means its table and a
 * font disagree, so it is counted with the placeholders and logged.
 */

const MISSING = /^Missing character: There is no (.+?) in font ([^!\s]+)!/;

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
    if (samples.length < keep) samples.push(`${m[1]} in ${m[2]}`);
  }
  return { count, samples };
}
