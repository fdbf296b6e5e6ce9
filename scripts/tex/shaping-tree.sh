# What LuaHBTeX needs in the texmf tree besides what pdfTeX reads (sourced
# by scripts/build-tex.sh): LuaTeX's Lua packages, fontspec, Latin Modern
# as OpenType, and Noto faces for the scripts pdfTeX cannot set (Arabic,
# Hebrew, Devanagari, Bengali, Tamil, Thai), with Noto Serif and Sans as a
# fallback for the digits and punctuation some of those faces lack.
#
#   add_shaping_files <texmf> <stage of the base packages> <noto stage>
#   add_shaping_languages <texmf> <stage of the base packages>  (below)

SHAPING_DEBS=(texlive-luatex fonts-noto-core)
# From texlive-luatex's tex/luatex: only what luaotfload, fontspec and
# babel load (the package holds some forty others).
LUATEX_KEEP=(luaotfload lualibs luatexbase hyph-utf8 lua-uni-algos ctablestack)
# Hyphenation patterns LuaTeX loads when a document uses the language.
SHAPED_LANGUAGES=(hindi bengali tamil thai)
# Regular and Bold of each (the scripts have no italics).
# Arabic, Tamil and Thai are set in their Sans faces in serif text too: in
# Noto Naskh Arabic, Noto Serif Tamil and Noto Serif Thai the extracted text
# (pdftotext, copy and search) splits lam-alef or puts marks after the next
# letter (python/rst2/script_preamble.py).
NOTO_FACES=(NotoSansArabic NotoSerifHebrew NotoSansHebrew
            NotoSerifDevanagari NotoSansDevanagari NotoSerifBengali NotoSansBengali
            NotoSansTamil NotoSansThai NotoSerif NotoSans)

add_shaping_files() {
  local texmf=$1 stage=$2 noto=$3 d f w
  local dist="$stage/usr/share/texlive/texmf-dist"
  for d in "${LUATEX_KEEP[@]}"; do
    [ -d "$dist/tex/luatex/$d" ] || die "tex/luatex/$d not in texlive-luatex"
    mkdir -p "$texmf/tex/luatex/$d"
    (cd "$dist/tex/luatex/$d" && find -L . -type f -print0 | xargs -0 -r cp -L --parents -t "$texmf/tex/luatex/$d")
  done
  # The Lua files of the packages the tree already has (babel's bidi and
  # transforms, among others); pdfTeX's pruning removed them.
  (cd "$dist/tex" && find -L generic latex -name '*.lua' -type f 2>/dev/null) | while read -r f; do
    [ -d "$texmf/tex/$(dirname "$f")" ] && cp -L "$dist/tex/$f" "$texmf/tex/$f"
  done
  mkdir -p "$texmf/fonts/opentype/public/lm" "$texmf/fonts/truetype/noto"
  cp -L "$stage"/usr/share/texmf/fonts/opentype/public/lm/*.otf "$texmf/fonts/opentype/public/lm/"
  for f in "${NOTO_FACES[@]}"; do
    for w in Regular Bold; do
      [ -f "$noto/usr/share/fonts/truetype/noto/$f-$w.ttf" ] || die "$f-$w.ttf not in fonts-noto-core"
      cp -L "$noto/usr/share/fonts/truetype/noto/$f-$w.ttf" "$texmf/fonts/truetype/noto/"
    done
  done
}

# The languages of these scripts, for LuaLaTeX only: babel 3.84 finds a
# language's patterns only when the format has a register for it, which a
# language.dat entry makes, and LuaTeX then loads them from language.dat.lua
# when a document first uses the language.  pdfLaTeX's language.dat stays as
# it is: this copy is in tex/lualatex, which only lualatex searches.  The
# entries are those texlive-lang-other has for these scripts, with the
# hyphen mins Debian's own language.dat.lua would give them (its hyphen-cnf
# entry); Thai's mark syllables, the only breaks Thai text has.
#
#   add_shaping_languages <texmf> <stage of the base packages>   (after language.dat is made)
add_shaping_languages() {
  local texmf=$1 stage=$2
  local dist="$stage/usr/share/texlive/texmf-dist"
  local lua="$texmf/tex/generic/config/language.dat.lua" dat="$texmf/tex/lualatex/config/language.dat" other cnf
  mkdir -p "$(dirname "$dat")"
  cp "$texmf/tex/generic/config/language.dat" "$dat"
  other="$(script_deb_dir texlive-lang-other)"
  cnf="$other/var/lib/tex-common/hyphen-cnf/texlive/texlive-lang-other.cnf"
  [ -f "$cnf" ] || die "texlive-lang-other's hyphen-cnf entry not found ($cnf)"
  sed '/^-- END of language.us.lua/d' "$dist/tex/generic/config/language.us.lua" > "$lua"
  mkdir -p "$texmf/tex/generic/hyph-utf8/patterns/txt" "$texmf/tex/generic/hyph-utf8/patterns/tex" "$texmf/tex/generic/hyph-utf8/loadhyph"
  for f in "${SHAPED_LANGUAGES[@]}"; do
    local line name left right loader pat
    line=$(grep "^name=$f " "$cnf") || die "no hyphenation entry for $f in $cnf"
    name=$f; left=$(sed -n 's/.*lefthyphenmin=\([0-9]*\).*/\1/p' <<<"$line"); right=$(sed -n 's/.*righthyphenmin=\([0-9]*\).*/\1/p' <<<"$line")
    loader=$(sed -n 's/.* file=\([^ ]*\).*/\1/p' <<<"$line"); pat=$(sed -n 's/.*file_patterns=\([^ ]*\).*/\1/p' <<<"$line")
    cp -L "$other/usr/share/texlive/texmf-dist/tex/generic/hyph-utf8/patterns/txt/$pat" "$texmf/tex/generic/hyph-utf8/patterns/txt/"
    cp -L "$other/usr/share/texlive/texmf-dist/tex/generic/hyph-utf8/loadhyph/$loader" "$texmf/tex/generic/hyph-utf8/loadhyph/"
    # babel's \babelprovide reads them through the loader (hyph-*.tex) when a document selects the language.
    cp -L "$other/usr/share/texlive/texmf-dist/tex/generic/hyph-utf8/patterns/tex/${pat%.pat.txt}.tex" "$texmf/tex/generic/hyph-utf8/patterns/tex/"
    printf '%s %s\n' "$name" "$loader" >> "$dat"
    printf '\t["%s"]={\n\t\tloader="%s",\n\t\tlefthyphenmin=%s,\n\t\trighthyphenmin=%s,\n\t\tsynonyms={},\n\t\tpatterns="%s",\n\t\thyphenation="",\n\t},\n' \
      "$name" "$loader" "$left" "$right" "$pat" >> "$lua"
  done
  echo '}' >> "$lua"
  # Russian and Ukrainian, which pdfTeX loads from ruhyphen's 8-bit files:
  # LuaTeX's loaders read the UTF-8 patterns, when a document uses them.
  local cyr; cyr="$(script_deb_dir texlive-lang-cyrillic)/usr/share/texlive/texmf-dist/tex/generic/hyph-utf8/patterns/tex"
  for f in hyph-ru.tex hyph-uk.tex; do
    [ -f "$cyr/$f" ] || die "$f not in texlive-lang-cyrillic"
    cp -L "$cyr/$f" "$texmf/tex/generic/hyph-utf8/patterns/tex/"
  done
}
