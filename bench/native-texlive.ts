/**
 * A native TeX Live 2024 for the benchmarks (issue 31): LaTeX's tagging
 * (\DocumentMetadata with pdfstandard=ua-1) needs TeX Live 2024's macros,
 * while the machine's own TeX Live is Debian bookworm's 2022, whose LaTeX
 * makes untagged PDFs. So the macro trees of Debian trixie (arch-all
 * texmf .debs) are downloaded through our own apt lists into the cache
 * folder, unpacked there once and reused, and run by the machine's own
 * native engines (bookworm's luahbtex from texlive-binaries): nothing of
 * the machine is changed, nothing is written inside the repository.
 *
 * The fonts come from the machine: bookworm's texmf-dist fonts (the TFM,
 * virtual and Type 1 fonts of texlive-fonts-recommended that trixie's
 * macro packages do not carry), lmodern's /usr/share/texmf, its pdftex.map
 * made by updmap (with Latin Modern), fonts-noto-core for Arabic. Bitmap
 * fonts without a Type 1 version (tcrm1000 of textcomp) come from METAFONT
 * into the cache, as on any native install.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { benchCacheDir } from './support.js';

/** Debian trixie's packages of the macros a tagged rst2 document loads (LaTeX kernel and latex-lab, tagpdf, fontspec, luaotfload, babel). */
const PACKAGES = ['texlive-base', 'texlive-latex-base', 'texlive-latex-recommended', 'texlive-latex-extra', 'texlive-luatex'];

/** Bumped when the layout below changes, so that an older cache is made again rather than half reused. */
const LAYOUT = 3;

/** The machine's (bookworm's) trees and fonts the native runs borrow. */
const BOOKWORM_DIST = '/usr/share/texlive/texmf-dist';
const MACHINE_TEXMF = '/usr/share/texmf';
const UPDMAP_DIR = '/var/lib/texmf/fonts/map/pdftex/updmap';
const MF_BASES = '/var/lib/texmf/web2c/metafont';
const NOTO = '/usr/share/fonts/truetype/noto';

/** What the machine must have for the native runs: a file each, and the Debian package that brings it. */
export const MACHINE_NEEDS: ReadonlyArray<readonly [string, string]> = [
  ['/usr/bin/luahbtex', 'texlive-binaries'],
  [`${MF_BASES}/mf.base`, 'texlive-base'],
  [`${MACHINE_TEXMF}/fonts/type1/public/lm`, 'lmodern'],
  [`${UPDMAP_DIR}/pdftex.map`, 'texlive-base'],
  [`${BOOKWORM_DIST}/fonts/tfm/adobe/helvetic`, 'texlive-fonts-recommended'],
  [`${NOTO}/NotoNaskhArabic-Regular.ttf`, 'fonts-noto-core'],
];

export interface NativeTexLive {
  /** The cache folder holding the unpacked trees, texmf.cnf, lualatex.fmt and the font caches. */
  root: string;
  /** TeX Live's version of the macros, from the .debs (e.g. 2024.20250309-1). */
  version: string;
  /** The environment of a native run: TEXMFCNF points at our texmf.cnf. */
  env: NodeJS.ProcessEnv;
  /** Runs lualatex (luahbtex with TeX Live 2024's lualatex.fmt) in `cwd` with `args` (options, then the file or first line). */
  lualatex(cwd: string, args: readonly string[]): SpawnSyncReturns<string>;
}

function cacheRoot(): string {
  return benchCacheDir('texlive-trixie');
}

/**
 * texmf.cnf for TeX Live 2024's macros in `root` (a cnf of our own, not
 * trixie's: its paths are those of an installed system, and the fonts here
 * live in other trees).
 */
function texmfCnf(root: string): string {
  const dist = path.join(root, 'x', 'usr', 'share', 'texlive', 'texmf-dist');
  const cfg = path.join(root, 'cfg');
  const v = path.join(root, 'var');
  // The read-only trees are searched in their ls-R only (`!!`), as TeX
  // Live's and Debian's own texmf.cnf do: without it, every file LaTeX
  // merely probes for (NotoSansArabic.fontspec, tuptm.fd, ...) costs a disk
  // search of the whole tree, some 9,000 directories, and the native runs
  // would be slower than those of an installed TeX Live they stand for.
  const dbs = [cfg, dist, MACHINE_TEXMF, BOOKWORM_DIST];
  for (const d of dbs) if (!fs.existsSync(path.join(d, 'ls-R'))) throw new Error(`${d} has no ls-R (mktexlsr)`);
  const bw = `!!${BOOKWORM_DIST}`;
  const lines: Array<readonly [string, string]> = [
    ['TEXMFROOT', path.dirname(dist)],
    ['TEXMFDIST', dist],
    ['TEXMFCFG', cfg],
    // lmodern (the machine's /usr/share/texmf) is not among trixie's macro packages.
    ['TEXMF', `{!!$TEXMFCFG,!!$TEXMFDIST,!!${MACHINE_TEXMF}}`],
    ['TEXMFDBS', `{${dbs.join(',')}}`],
    // Every writable tree in the cache: luaotfload's font database, PK fonts.
    ...['TEXMFVAR', 'TEXMFSYSVAR', 'TEXMFCACHE', 'TEXMFHOME', 'TEXMFCONFIG', 'TEXMFSYSCONFIG'].map((k) => [k, v] as const),
    ['OSFONTDIR', NOTO],
    ['TEXINPUTS.lualatex', '.;$TEXMF/tex/{lualatex,latex,luatex,generic,}//'],
    ['TEXINPUTS.luatex', '.;$TEXMF/tex/{luatex,plain,generic,}//'],
    ['TEXINPUTS', '.;$TEXMF/tex/{latex,generic,}//'],
    ['LUAINPUTS', '.;$TEXMF/tex/{luatex,lualatex,latex,generic,}//;$TEXMF/scripts/{$progname,$engine,}/{lua,}//'],
    ['CLUAINPUTS', '.'],
    ['TEXFORMATS', `.;${path.join(root, 'fmt')}`],
    ['TEXPOOL', '.'],
    // Fonts: trixie's trees, then bookworm's (texlive-fonts-recommended's Times, Helvetica, Courier).
    ['TFMFONTS', `.;$TEXMF/fonts/tfm//;${bw}/fonts/tfm//`],
    ['VFFONTS', `.;$TEXMF/fonts/vf//;${bw}/fonts/vf//`],
    ['T1FONTS', `.;$TEXMF/fonts/type1//;${bw}/fonts/type1//`],
    ['AFMFONTS', '.;$TEXMF/fonts/afm//'],
    ['OPENTYPEFONTS', `.;$TEXMF/fonts/opentype//;${NOTO}`],
    ['TTFONTS', `.;$TEXMF/fonts/truetype//;${NOTO}`],
    ['ENCFONTS', `.;$TEXMF/fonts/enc//;${bw}/fonts/enc//`],
    // updmap's pdftex.map first: it names Latin Modern's Type 1 fonts, which trixie's map (of its own packages) does not.
    ['TEXFONTMAPS', `.;${UPDMAP_DIR};$TEXMF/fonts/map/{pdftex,dvips,}//;${bw}/fonts/map/{pdftex,dvips,}//`],
    ['CMAPFONTS', '.;$TEXMF/fonts/cmap//'],
    ['MISCFONTS', '.;$TEXMF/fonts/misc//'],
    ['WEB2C', '$TEXMF/web2c'],
    ['TEXCONFIG', '$TEXMF/dvips//'],
    // METAFONT makes the PK fonts that have no Type 1 version, into the cache.
    ['VARTEXFONTS', path.join(v, 'fonts')],
    ['PKFONTS', `.;${path.join(v, 'fonts', 'pk')}//;$TEXMF/fonts/pk//`],
    ['MFINPUTS', `.;$TEXMF/fonts/source//;${bw}/fonts/source//;${bw}/metafont//`],
    ['MFBASES', `.;${MF_BASES}`],
    ['MKTEXTEX', '0'], ['MKTEXPK', '1'], ['MKTEXMF', '0'], ['MKTEXTFM', '0'], ['MKTEXFMT', '0'],
    ['shell_escape', 'f'], ['openout_any', 'p'], ['openin_any', 'a'],
    // TeX Live's own sizes (its texmf.cnf), which LaTeX with tagging needs beyond the compiled-in defaults.
    ['main_memory', '5000000'], ['extra_mem_top', '0'], ['extra_mem_bot', '0'], ['font_mem_size', '8000000'], ['font_max', '9000'],
    ['hash_extra', '600000'], ['pool_size', '6250000'], ['string_vacancies', '90000'], ['max_strings', '500000'], ['pool_free', '47500'],
    ['strings_free', '100'], ['buf_size', '200000'], ['trie_size', '1100000'], ['hyph_size', '8191'], ['nest_size', '1000'],
    ['max_in_open', '15'], ['param_size', '20000'], ['save_size', '200000'], ['stack_size', '10000'], ['dvi_buf_size', '16384'],
    ['error_line', '79'], ['half_error_line', '50'], ['max_print_line', '79'], ['expand_depth', '10000'],
  ];
  return `% rst2 bench/native-texlive.ts (layout ${LAYOUT}): TeX Live 2024's macros (Debian trixie) on the machine's engines\n${lines.map(([k, val]) => `${k} = ${val}`).join('\n')}\n`;
}

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function run(cmd: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `status ${r.status}`}): ${`${r.stdout}${r.stderr}`.slice(-800)}`);
}

/** Downloads and unpacks trixie's macro packages into `root/x`, when not there yet. */
function unpack(root: string): void {
  const x = path.join(root, 'x');
  const marker = path.join(root, 'unpacked');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === `layout ${LAYOUT}\n`) return;
  const debs = path.join(root, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  const have = () => fs.readdirSync(debs).filter((f) => f.endsWith('.deb'));
  // An interrupted earlier download keeps the packages it finished.
  if (!PACKAGES.every((p) => have().some((f) => f.startsWith(`${p}_`)))) {
    say(`downloading Debian trixie's ${PACKAGES.join(' ')} into ${debs}`);
    const aptPrivate = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/apt-private');
    execFileSync(aptPrivate, ['--suites', 'trixie', 'apt-get', 'download', ...PACKAGES], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  fs.rmSync(x, { recursive: true, force: true });
  fs.mkdirSync(x, { recursive: true });
  for (const deb of have()) run('dpkg', ['-x', path.join(debs, deb), x], root);
  // texlive-base ships texmf-dist/ls-R as a link to the machine's
  // /var/lib/texmf/ls-R-TEXLIVEDIST (Debian makes it at install):
  // mktexlsr would write trixie's listing through it, over bookworm's.
  const dist = path.join(x, 'usr', 'share', 'texlive', 'texmf-dist');
  fs.rmSync(path.join(dist, 'ls-R'), { force: true });
  run('mktexlsr', [dist], root);
  if (fs.lstatSync(path.join(dist, 'ls-R')).isSymbolicLink()) throw new Error(`${dist}/ls-R is a link`);
  fs.writeFileSync(marker, `layout ${LAYOUT}\n`);
}

/** The version of texlive-base among the downloaded .debs (2024.YYYYMMDD-N). */
function debVersion(root: string): string {
  const deb = fs.readdirSync(path.join(root, 'debs')).find((f) => f.startsWith('texlive-base_'));
  return deb?.split('_')[1] ?? 'unknown';
}

/**
 * TeX Live 2024's macros ready to run, made on the first call (download,
 * unpack, texmf.cnf, lualatex.fmt: a few minutes) and reused after. Throws
 * with the reason when they cannot be had.
 */
export function nativeTexLive2024(): NativeTexLive {
  for (const [file, pkg] of MACHINE_NEEDS) if (!fs.existsSync(file)) throw new Error(`native TeX Live 2024 needs ${file} (Debian package ${pkg})`);
  const root = cacheRoot();
  fs.mkdirSync(root, { recursive: true });
  const ready = path.join(root, 'ready');
  const readyText = `layout ${LAYOUT}\n`;
  const fmtDir = path.join(root, 'fmt');
  const cnfDir = path.join(root, 'cnf');
  const env: NodeJS.ProcessEnv = { ...process.env, TEXMFCNF: cnfDir };
  // Set in the caller's environment they would override our texmf.cnf.
  for (const k of ['TEXMFHOME', 'TEXMFVAR', 'TEXMFCONFIG', 'TEXINPUTS', 'TEXFORMATS', 'LUAINPUTS', 'OSFONTDIR']) delete env[k];

  const isReady = fs.existsSync(ready) && fs.readFileSync(ready, 'utf8') === readyText && fs.existsSync(path.join(fmtDir, 'lualatex.fmt'));
  if (!isReady) {
    fs.rmSync(ready, { force: true });
    unpack(root);
    const dist = path.join(root, 'x', 'usr', 'share', 'texlive', 'texmf-dist');
    // US English only, as the service's own tree: language.dat's full list would need every hyphenation package.
    const config = path.join(root, 'cfg', 'tex', 'generic', 'config');
    fs.mkdirSync(config, { recursive: true });
    const from = path.join(dist, 'tex', 'generic', 'config');
    fs.copyFileSync(path.join(from, 'language.us'), path.join(config, 'language.dat'));
    fs.copyFileSync(path.join(from, 'language.us.def'), path.join(config, 'language.def'));
    fs.copyFileSync(path.join(from, 'language.us.lua'), path.join(config, 'language.dat.lua'));
    run('mktexlsr', [path.join(root, 'cfg')], root);
    // A fresh font cache: luaotfload's database and PK fonts follow the cnf.
    fs.rmSync(path.join(root, 'var'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'var', 'fonts'), { recursive: true });
    fs.mkdirSync(cnfDir, { recursive: true });
    fs.writeFileSync(path.join(cnfDir, 'texmf.cnf'), texmfCnf(root));
    // As fmtutil.cnf's line for lualatex (luahbtex, language.dat and .dat.lua, lualatex.ini).
    fs.rmSync(fmtDir, { recursive: true, force: true });
    fs.mkdirSync(fmtDir, { recursive: true });
    say(`making TeX Live 2024's lualatex.fmt in ${fmtDir}`);
    run('luahbtex', ['-ini', '-interaction=nonstopmode', '-halt-on-error', '-jobname=lualatex', '-progname=lualatex', 'lualatex.ini'], fmtDir, env);
    fs.writeFileSync(ready, readyText);
  } else {
    // Rewritten on each use: cheap, and keeps it the code's (the trees it names are the same).
    fs.writeFileSync(path.join(cnfDir, 'texmf.cnf'), texmfCnf(root));
  }

  const fmt = path.join(fmtDir, 'lualatex.fmt');
  return {
    root,
    version: debVersion(root),
    env,
    lualatex(cwd, args) {
      return spawnSync('luahbtex', [`--fmt=${fmt}`, '--progname=lualatex', ...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    },
  };
}

/** pdfinfo's "Tagged:" line of a PDF: true, false, or null when pdfinfo cannot read it. */
export function pdfTagged(pdf: string): boolean | null {
  const r = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const m = /^Tagged:\s+(yes|no)/m.exec(r.stdout ?? '');
  return m ? m[1] === 'yes' : null;
}
