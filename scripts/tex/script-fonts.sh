# Sourced by scripts/build-tex.sh: the files the non-Latin scripts need
# (python/rst2/scripts.py decides per document which of them a run loads).
#
# From each Debian package only what these documents use is taken, and of
# the fonts only one design size: the preamble of a script set scales the
# 10 pt design to every size (declared in python/rst2/scripts.py), so the
# 5..35.83 pt TFMs and Type 1 files are never read.
#
#   Cyrillic    texlive-lang-cyrillic: T2A encoding (cyrillic), babel-russian,
#               -ukrainian, -bulgarian, hyphenation patterns; the T2A TFMs
#               of the lh fonts are METAFONT output in TeX Live (mktextfm
#               makes them on first use), so they are made here with the
#               build machine's mf from the lh sources; the glyphs are
#               cm-super's Type 1 fonts that cm-super-minimal already ships.
#   Greek       texlive-lang-greek: LGR (greek-fontenc, greek-inputenc),
#               CB fonts (TFM + Type 1), babel-greek, patterns.
#   Vietnamese  texlive-lang-other: T5 (vntex's t5enc.def/.dfu) and
#               babel-vietnamese; Latin Modern has the T5 fonts already.
#   CJK         latex-cjk-common (CJKutf8) and the Unicode subfonts of
#               Arphic GB Song (simplified Chinese), Arphic Big5 Ming
#               (traditional), Wadalab Mincho (Japanese) and
#               Nanum Myeongjo (Korean, texlive-lang-korean's nanumtype1).
#   Emoji       hwemoji (texlive-latex-extra: Twemoji, CC-BY 4.0) with
#               scalerel and ifnextok.
#
# Each comes with its pdftex.map lines (rst2-scripts.map, appended to
# pdftex.map) and its hyphenation patterns (added to language.dat before
# pdflatex.fmt is dumped).

SCRIPT_DEBS=(texlive-lang-cyrillic texlive-lang-greek texlive-lang-other
             latex-cjk-common latex-cjk-chinese-arphic-gbsn00lp
             latex-cjk-chinese-arphic-bsmi00lp latex-cjk-japanese-wadalab
             texlive-lang-korean)
# texlive-latex-extra packages the emoji need (besides LATEX_EXTRA_KEEP).
SCRIPT_LATEX_EXTRA=(hwemoji scalerel ifnextok)

# The T2A shapes python/rst2/scripts.py declares (cm-super names: larm =
# roman, lati = italic, ...; all at the 10 pt design).
CYRILLIC_TFMS=(larm1000 lati1000 lasl1000 lacc1000 labx1000 labi1000
               lass1000 lasi1000 lasx1000 latt1000)
# The LGR shapes (CB fonts): roman, italic, slanted, small caps, bold
# (upright, italic, slanted), sans (upright, slanted, bold), typewriter.
GREEK_FONTS=(grmn1000 grmi1000 grmo1000 grmc1000 grxn1000 grxi1000 grxo1000
             gsmn1000 gsmo1000 gsxn1000 gttn1000)
# babel names, pattern loaders and hyphen mins, as the packages' hyphen.cnf
# files give them (Vietnamese has none: its words are single syllables).
SCRIPT_LANGUAGES=("russian loadhyph-ru.tex 2 2" "ukrainian loadhyph-uk.tex 2 2"
                  "bulgarian loadhyph-bg.tex 2 2" "greek loadhyph-el-polyton.tex 1 1"
                  "monogreek loadhyph-el-monoton.tex 1 1")

script_deb_dir() { # package -> its extraction folder
  echo "$SCRIPTS_STAGE/$1"
}

# copy_some <from root> <to root> <relative path>...: files or whole folders.
copy_some() {
  local from=$1 to=$2 rel
  shift 2
  for rel in "$@"; do
    if [ -d "$from/$rel" ]; then
      mkdir -p "$to/$rel"; copy_tree "$from/$rel" "$to/$rel"
    elif [ -f "$from/$rel" ]; then
      mkdir -p "$(dirname "$to/$rel")"; cp -L "$from/$rel" "$to/$rel"
    else
      die "script fonts: $rel not found in $from"
    fi
  done
}

# copy_glob <from dir> <to dir> <pattern>...: the matching files of one folder.
copy_glob() {
  local from=$1 to=$2 pat n=0 f
  shift 2
  mkdir -p "$to"
  for pat in "$@"; do
    for f in "$from"/$pat; do
      [ -f "$f" ] || continue
      cp -L "$f" "$to/"; n=$((n + 1))
    done
  done
  [ "$n" -gt 0 ] || die "script fonts: nothing matches $* in $from"
}

# add_script_files <texmf> <stage of the base packages> <extra (latex-extra) stage> <map out>
add_script_files() {
  local texmf=$1 base=$2 extra=$3 map=$4
  local cyr greek other cjk gb b5 jp kot
  cyr="$(script_deb_dir texlive-lang-cyrillic)/usr/share/texlive/texmf-dist"
  greek="$(script_deb_dir texlive-lang-greek)/usr/share/texlive/texmf-dist"
  other="$(script_deb_dir texlive-lang-other)/usr/share/texlive/texmf-dist"
  cjk="$(script_deb_dir latex-cjk-common)/usr/share/texmf"
  gb="$(script_deb_dir latex-cjk-chinese-arphic-gbsn00lp)/usr/share/texmf"
  b5="$(script_deb_dir latex-cjk-chinese-arphic-bsmi00lp)/usr/share/texmf"
  jp="$(script_deb_dir latex-cjk-japanese-wadalab)/usr/share/texmf"
  kot="$(script_deb_dir texlive-lang-korean)/usr/share/texlive/texmf-dist"
  : > "$map"

  # ---- Cyrillic
  copy_some "$cyr" "$texmf" tex/latex/cyrillic tex/generic/babel-russian tex/generic/babel-ukrainian \
    tex/generic/babel-bulgarian tex/generic/ruhyphen tex/generic/ukrhyph \
    tex/generic/hyph-utf8/loadhyph/loadhyph-ru.tex tex/generic/hyph-utf8/loadhyph/loadhyph-uk.tex \
    tex/generic/hyph-utf8/loadhyph/loadhyph-bg.tex tex/generic/hyph-utf8/patterns/tex/hyph-bg.tex
  make_lh_tfms "$cyr/fonts/source/lh" "$base/usr/share/texlive/texmf-dist" "$texmf/fonts/tfm/rst2/lh"

  # ---- Greek
  copy_some "$greek" "$texmf" tex/latex/greek-fontenc tex/latex/greek-inputenc tex/generic/babel-greek \
    tex/generic/hyph-utf8/loadhyph/loadhyph-el-polyton.tex tex/generic/hyph-utf8/loadhyph/loadhyph-el-monoton.tex \
    tex/generic/hyph-utf8/patterns/tex/hyph-el-polyton.tex tex/generic/hyph-utf8/patterns/tex/hyph-el-monoton.tex \
    tex/generic/hyphen/grphyph5.tex tex/generic/hyphen/grmhyph5.tex
  local f
  for f in "${GREEK_FONTS[@]}"; do
    copy_some "$greek" "$texmf" "fonts/tfm/public/cbfonts/$f.tfm" "fonts/type1/public/cbfonts/$f.pfb"
    grep -E "^$f[[:space:]]" "$greek/fonts/map/dvips/cbfonts/cbgreek-full.map" >> "$map" ||
      die "script fonts: $f not in cbgreek-full.map"
  done

  # ---- Vietnamese
  copy_some "$other" "$texmf" tex/latex/vntex/t5enc.def tex/latex/vntex/t5enc.dfu \
    tex/generic/babel-vietnamese

  # ---- CJK: CJKutf8 and one Unicode-encoded family per language
  copy_some "$cjk" "$texmf" tex/latex/CJK/CJK.sty tex/latex/CJK/CJKutf8.sty tex/latex/CJK/CJK.enc tex/latex/CJK/mule \
    tex/latex/CJK/UTF8
  copy_some "$gb" "$texmf" tex/latex/CJK/UTF8/c70gbsn.fd fonts/tfm/arphic/gbsnu fonts/type1/arphic/gbsnu
  copy_some "$b5" "$texmf" tex/latex/CJK/UTF8/c70bsmi.fd fonts/tfm/arphic/bsmiu fonts/type1/arphic/bsmiu
  cat "$gb/fonts/map/dvips/arphic/gbsnu.map" "$b5/fonts/map/dvips/arphic/bsmiu.map" >> "$map"
  # Wadalab Mincho: Unicode virtual fonts over the JIS-encoded Type 1 fonts.
  copy_some "$jp" "$texmf" tex/latex/CJK/UTF8/c70min.fd
  copy_glob "$jp/fonts/vf/wadalab/Unicode" "$texmf/fonts/vf/wadalab/Unicode" 'udmj*.vf'
  copy_glob "$jp/fonts/tfm/wadalab/Unicode" "$texmf/fonts/tfm/wadalab/Unicode" 'udmj*.tfm'
  # (kana and JIS level 1 in dmj*, level 2 kanji in mc2j*)
  copy_glob "$jp/fonts/tfm/wadalab/JIS" "$texmf/fonts/tfm/wadalab/JIS" 'dmj*.tfm' 'mc2j*.tfm'
  copy_glob "$jp/fonts/type1/wadalab/JIS" "$texmf/fonts/type1/wadalab/JIS" 'dmj*.pfb' 'mc2j*.pfb'
  grep -E '^(dmj|mc2j)' "$jp/fonts/map/dvips/wadalab/wadalab.map" >> "$map"
  # Nanum Myeongjo (Type 1 subfonts by Unicode plane; extractable, unlike
  # the UHC fonts, which compose syllables from jamo pieces).
  copy_glob "$kot/fonts/tfm/public/nanumtype1" "$texmf/fonts/tfm/public/nanumtype1" 'nanummjm[0-9a-f][0-9a-f].tfm'
  copy_glob "$kot/fonts/type1/public/nanumtype1" "$texmf/fonts/type1/public/nanumtype1" 'nanummjm[0-9a-f][0-9a-f].pfb'
  grep -E '^nanummjm[0-9a-f]{2}[[:space:]]' "$kot/fonts/map/dvips/nanumtype1/nanumfonts.map" >> "$map"

  # ---- Emoji
  local d
  for d in "${SCRIPT_LATEX_EXTRA[@]}"; do
    copy_some "$extra/usr/share/texlive/texmf-dist" "$texmf" "tex/latex/$d"
  done
}

# make_lh_tfms <lh sources> <texmf-dist with METAFONT's plain.mf, cm and ec> <out>
# The T2A names (larm1000, ...) have no .mf file of their own: TeX Live's
# mktexmf writes a one-line driver, `input fikparm;`, which reads the shape
# and size from the job name and takes the parameters of the EC font of the
# same shape (ecrm for larm). The same driver is written here, and METAFONT
# searches only the folders named (no trailing colon: no system TeX paths).
make_lh_tfms() {
  local src=$1 dist=$2 out=$3 dirs t work d
  work=$(mktemp -d)
  mkdir -p "$out"
  for d in "$dist/metafont/base" "$dist/fonts/source/public/cm" "$dist/fonts/source/public/modes" \
           "$dist/fonts/source/jknappen/ec" "$src/base"; do
    [ -d "$d" ] || die "script fonts: METAFONT sources missing: $d (from the downloaded texlive-base and texlive-lang-cyrillic)"
  done
  dirs=$(find "$src" -type d | LC_ALL=C sort | tr '\n' ':')
  (
    cd "$work"
    export MFINPUTS=".:${dirs}$dist/metafont/base:$dist/fonts/source/public/cm:$dist/fonts/source/public/modes:$dist/fonts/source/jknappen/ec"
    mf -ini '\input plain; input modes; dump' </dev/null >base.log 2>&1 || { cat base.log >&2; exit 1; }
    [ -s plain.base ] || { cat base.log >&2; exit 1; }
    for t in "${CYRILLIC_TFMS[@]}"; do
      printf 'input fikparm;\n' > "$t.mf"
      # ljfour, as mktextfm would; a TFM does not depend on the mode.
      mf -base=./plain "\\mode:=ljfour; mag:=1; batchmode; input $t" </dev/null >"$t.out" 2>&1 &&
        [ -s "$t.tfm" ] || { tail -n 30 "$t.log" >&2 2>/dev/null || cat "$t.out" >&2; exit 1; }
      cp "$t.tfm" "$out/"
    done
  ) || { rm -rf "$work"; die "METAFONT could not make the lh TFMs"; }
  rm -rf "$work"
}

# add_script_languages <language.dat> <language.def>: the patterns pdflatex.fmt loads.
add_script_languages() {
  local dat=$1 def=$2 entry name file l r
  for entry in "${SCRIPT_LANGUAGES[@]}"; do
    read -r name file l r <<<"$entry"
    printf '%s %s\n' "$name" "$file" >> "$dat"
    printf '\\addlanguage{%s}{%s}{}{%s}{%s}\n' "$name" "${file%.tex}" "$l" "$r" >> "$def"
  done
}
