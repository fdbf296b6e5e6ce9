# The TeX engines compiled to WebAssembly, from Debian's texlive-bin
# (trixie's), zlib, libpng, harfbuzz and graphite2 (bookworm's) sources: the slow part of
# scripts/build-tex.sh, sourced by it.  Its hash (with engine-stubs/) is part
# of the engines' cache key, so only a change here (or of the source
# packages and build tools) compiles the engines again.
#
#   pdfTeX    the fast path: every document whose text pdfTeX can set
#   LuaHBTeX  LuaTeX with HarfBuzz inside, for the scripts that need shaping
#             or right-to-left setting (Arabic, Hebrew, Indic, Thai)
#
#   build_engine <work dir> <out dir>
# writes pdftex.cjs, pdftex.wasm, pdftex-version, luahbtex.cjs,
# luahbtex.wasm, luahbtex-version and built-from.txt (the source package
# versions) into <out dir>.  Uses SRC_PKGS, JOBS, LOGS, log, die and
# run_logged of build-tex.sh.

build_engine() {
  local WORK=$1 OUT=$2
  local SRC="$WORK/src" PFX="$WORK/prefix" BLD="$WORK/build" p dsc d
  rm -rf "$WORK"
  mkdir -p "$SRC" "$PFX" "$BLD"

  # Debian's emcc: acorn comes from /usr/share/nodejs, and it must use its own cache.
  export NODE_PATH=/usr/share/nodejs
  unset EM_CACHE EMCC_CFLAGS || true

  fetch_source() { # source package -> unpacked dir name on stdout
    local pkg=$1 v
    (cd "$SRC" && apt_src "$pkg" apt-get source --download-only "$pkg" >>"$LOGS/sources.log" 2>&1) && return 0
    # The newest version is sometimes missing from the mirror: try the others.
    for v in $(apt_src "$pkg" apt-cache showsrc "$pkg" | awk '/^Version:/{print $2}' | sort -uVr); do
      log "  $pkg: retrying with version $v"
      (cd "$SRC" && apt_src "$pkg" apt-get source --download-only "$pkg=$v" >>"$LOGS/sources.log" 2>&1) && return 0
    done
    die "could not download the source of $pkg"
  }

  log "downloading sources: ${SRC_PKGS[*]}"
  : > "$OUT/built-from.txt"
  for p in "${SRC_PKGS[@]}"; do
    fetch_source "$p"
    dsc=$(ls -t "$SRC/${p}_"*.dsc | head -n 1)
    (cd "$SRC" && dpkg-source -x "$(basename "$dsc")" >>"$LOGS/sources.log" 2>&1) ||
      die "dpkg-source -x $dsc failed"
    echo "src $p $(basename "$dsc" .dsc | sed "s/^${p}_//")" >> "$OUT/built-from.txt"
  done
  local TLSRC ZSRC PNGSRC HBSRC GRSRC STUBS="$HERE/tex/engine-stubs"
  TLSRC=$(ls -d "$SRC"/texlive-bin-*/ | head -n 1); TLSRC=${TLSRC%/}
  ZSRC=$(ls -d "$SRC"/zlib-*/ | head -n 1); ZSRC=${ZSRC%/}
  PNGSRC=$(ls -d "$SRC"/libpng1.6-*/ | head -n 1); PNGSRC=${PNGSRC%/}
  HBSRC=$(ls -d "$SRC"/harfbuzz-*/ | head -n 1); HBSRC=${HBSRC%/}
  GRSRC=$(ls -d "$SRC"/graphite2-*/ | head -n 1); GRSRC=${GRSRC%/}
  log "building zlib with emcc"
  run_logged zlib bash -c "cd '$ZSRC' && emconfigure ./configure --static --prefix='$PFX' &&
    emmake make -j$JOBS libz.a && emmake make install"

  log "building libpng with emcc"
  run_logged libpng bash -c "cd '$PNGSRC' && emconfigure ./configure --host=wasm32-unknown-emscripten \
    --disable-shared --enable-static --prefix='$PFX' CPPFLAGS=-I'$PFX/include' LDFLAGS=-L'$PFX/lib' &&
    emmake make -j$JOBS libpng16.la && emmake make install-libLTLIBRARIES install-data-am"

  # HarfBuzz from its single-file amalgamation: one em++ call, no meson.
  # Without ICU, graphite2 or threads: its own Unicode tables serve, the
  # Noto fonts are OpenType, and wasm has one thread.
  log "building harfbuzz with em++"
  run_logged harfbuzz bash -c "mkdir -p '$PFX/lib/pkgconfig' '$PFX/include/harfbuzz' &&
    em++ -O2 -std=c++11 -fno-exceptions -fno-rtti -DHB_NO_MT -c '$HBSRC/src/harfbuzz.cc' -o '$WORK/harfbuzz.o' &&
    emar rcs '$PFX/lib/libharfbuzz.a' '$WORK/harfbuzz.o' &&
    cp '$HBSRC'/src/hb.h '$HBSRC'/src/hb-*.h '$PFX/include/harfbuzz/'"
  # luaharfbuzz includes <hb.h> without the harfbuzz/ folder.
  cp "$PFX/include/harfbuzz/"*.h "$PFX/include/"
  # configure wants "system" ICU and graphite2 next to a system HarfBuzz:
  # graphite2's real headers, and the two names it links (engine-stubs/).
  # zziplib (LuaTeX's Lua zip library) is a stub whose opens all fail.
  log "building the stubs for ICU, graphite2 and zziplib"
  run_logged stubs bash -c "mkdir -p '$PFX/include/graphite2' &&
    cp '$GRSRC'/include/graphite2/*.h '$PFX/include/graphite2/' &&
    cp -r '$STUBS/include/.' '$PFX/include/' &&
    emcc -O2 -c '$STUBS/probes.c' -o '$WORK/probes.o' && emar rcs '$PFX/lib/librst2probes.a' '$WORK/probes.o' &&
    emcc -O2 -I'$PFX/include' -c '$STUBS/zzip.c' -o '$WORK/zzip.o' && emar rcs '$PFX/lib/libzzip.a' '$WORK/zzip.o'"
  local HBVER; HBVER=$(sed -n 's/^#define HB_VERSION_STRING "\(.*\)"/\1/p' "$HBSRC/src/hb-version.h")
  pc() { printf 'prefix=%s\nName: %s\nDescription: %s\nVersion: %s\nLibs: %s\nCflags: %s\n' "$PFX" "$1" "$2" "$3" "$4" "$5" > "$PFX/lib/pkgconfig/$1.pc"; }
  pc harfbuzz 'HarfBuzz (amalgamation, em++)' "$HBVER" "-L$PFX/lib -lharfbuzz" "-I$PFX/include/harfbuzz"
  pc graphite2 'headers only (HarfBuzz is built without graphite2)' 1.3.14 "-L$PFX/lib -lrst2probes" "-I$PFX/include"
  pc icu-uc 'none (HarfBuzz is built without ICU)' 72.1 "-L$PFX/lib -lrst2probes" ''
  pc icu-io 'none (HarfBuzz is built without ICU)' 72.1 "-L$PFX/lib -lrst2probes" ''
  pc zziplib 'stub: no archive opens' 0.13.72 "-L$PFX/lib -lzzip" "-I$PFX/include"

  # Only these are needed for pdfTeX and LuaHBTeX; TeX Live's configure only
  # descends into subdirectories whose configure is executable.
  for d in "$TLSRC"/libs/* "$TLSRC"/texk/* "$TLSRC"/utils/*; do
    [ -x "$d/configure" ] || continue
    case "${d#"$TLSRC"/}" in libs/xpdf|libs/lua53|libs/pplib|texk/kpathsea|texk/web2c) ;; *) chmod -x "$d/configure" ;; esac
  done

  log "configuring TeX Live for wasm32-unknown-emscripten (several minutes)"
  run_logged tl-configure bash -c "cd '$BLD' && '$TLSRC/configure' \
    --host=wasm32-unknown-emscripten --build=x86_64-pc-linux-gnu \
    --disable-all-pkgs --enable-web2c --enable-pdftex --disable-native-texlive-build \
    --disable-tex --disable-ptex --disable-eptex --disable-uptex --disable-euptex --disable-aleph \
    --disable-hitex --disable-luatex --disable-luajittex --enable-luahbtex --disable-luajithbtex \
    --disable-mp --disable-pmp --disable-upmp --disable-xetex --disable-mf --disable-mflua \
    --disable-mfluajit --disable-web-progs --disable-synctex --disable-pdftex-synctex \
    --disable-etex --disable-tex-synctex \
    --enable-static --disable-shared --with-system-zlib --with-system-libpng \
    --with-system-harfbuzz --with-system-graphite2 --with-system-icu --with-system-zziplib \
    --without-x --disable-multiplatform --disable-linked-scripts --disable-ipc \
    CC=emcc CXX=em++ AR=emar RANLIB=emranlib BUILDCC=gcc BUILDCXX=g++ BUILDCFLAGS=-O2 \
    CFLAGS=-O2 CXXFLAGS=-O2 CPPFLAGS=-I'$PFX/include' LDFLAGS=-L'$PFX/lib' \
    PKG_CONFIG=pkg-config PKG_CONFIG_PATH='$PFX/lib/pkgconfig' PKG_CONFIG_LIBDIR='$PFX/lib/pkgconfig'"

  # texk/web2c's Makefile does not get HarfBuzz's libraries from configure
  # (their variables stay empty there): name them.  make links both engines
  # with its own flags; each link is redone below with ours.
  local LIBVARS="HARFBUZZ_LIBS='-L$PFX/lib -lharfbuzz' GRAPHITE2_LIBS='-L$PFX/lib -lrst2probes' ICU_LIBS='-L$PFX/lib -lrst2probes'"
  log "compiling pdfTeX and LuaHBTeX (make -j$JOBS, about 25 minutes on 2 cores)"
  run_logged tl-make bash -c "cd '$BLD' && make -j$JOBS $LIBVARS"

  log "linking pdftex.wasm"
  EMLINK="-L$PFX/lib -O2 -sMODULARIZE=1 -sEXPORT_NAME=createPdftex -sENVIRONMENT=node \
    -sINVOKE_RUN=0 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 \
    -sFORCE_FILESYSTEM=1 -lnodefs.js -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
    -sEXPORTED_RUNTIME_METHODS=callMain,FS,ENV"
  run_logged pdftex-link bash -c "cd '$BLD/texk/web2c' && rm -f pdftex pdftex.wasm &&
    make pdftex LDFLAGS='$EMLINK'"
  cp "$BLD/texk/web2c/pdftex" "$OUT/pdftex.cjs"
  cp "$BLD/texk/web2c/pdftex.wasm" "$OUT/pdftex.wasm"
  sed -n "s/^@d pdftex_version_string=='-\\([0-9.]*\\)'.*/\\1/p" "$TLSRC/texk/web2c/pdftexdir/pdftex.web" | head -n 1 > "$OUT/pdftex-version"

  # LuaHBTeX: a larger first memory (a short Arabic note takes 120-170 MB
  # natively) and the C stack pinned, since emscripten's default shrank
  # from 5 MiB to 64 KiB after 3.1.27 and Lua recurses deeply.
  log "linking luahbtex.wasm"
  local EMLINK_LUA="${EMLINK/createPdftex/createLuahbtex}"
  EMLINK_LUA="${EMLINK_LUA/-sINITIAL_MEMORY=134217728/-sINITIAL_MEMORY=268435456 -sTOTAL_STACK=5242880}"
  run_logged luahbtex-link bash -c "cd '$BLD/texk/web2c' && rm -f luahbtex luahbtex.wasm &&
    make luahbtex LDFLAGS='$EMLINK_LUA' $LIBVARS"
  cp "$BLD/texk/web2c/luahbtex" "$OUT/luahbtex.cjs"
  cp "$BLD/texk/web2c/luahbtex.wasm" "$OUT/luahbtex.wasm"
  sed -n 's/^const char \*luatex_version_string = "\(.*\)";/\1/p' "$TLSRC/texk/web2c/luatexdir/luatex.c" | head -n 1 > "$OUT/luahbtex-version"
  rm -rf "$WORK"
}
