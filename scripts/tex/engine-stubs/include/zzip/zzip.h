/* zziplib as LuaTeX's Lua `zip` library calls it, and nothing behind it:
 * every archive fails to open.  No document of ours reads zip archives from
 * Lua, and Debian's zziplib source is not always on the mirror; a library
 * that cannot open anything is also one less parser of untrusted bytes. */
#ifndef RST2_ZZIP_STUB_H
#define RST2_ZZIP_STUB_H
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>
typedef struct zzip_dir ZZIP_DIR;
typedef struct zzip_file ZZIP_FILE;
typedef int zzip_error_t;
typedef ssize_t zzip_ssize_t;
typedef size_t zzip_size_t;
typedef off_t zzip_off_t;
typedef const char *zzip_strings_t;
typedef struct zzip_dirent { int d_compr; int d_csize; int st_size; char *d_name; } ZZIP_DIRENT;
ZZIP_DIR *zzip_dir_open(const char *name, zzip_error_t *err);
int zzip_closedir(ZZIP_DIR *dir);
ZZIP_DIRENT *zzip_readdir(ZZIP_DIR *dir);
void zzip_rewinddir(ZZIP_DIR *dir);
ZZIP_FILE *zzip_file_open(ZZIP_DIR *dir, const char *name, int flags);
ZZIP_FILE *zzip_open(const char *name, int flags);
ZZIP_FILE *zzip_open_ext_io(const char *name, int flags, int modes, zzip_strings_t *ext, void *io);
int zzip_fclose(ZZIP_FILE *file);
zzip_ssize_t zzip_fread(void *ptr, zzip_size_t size, zzip_size_t nmemb, ZZIP_FILE *file);
zzip_off_t zzip_seek(ZZIP_FILE *file, zzip_off_t offset, int whence);
zzip_off_t zzip_tell(ZZIP_FILE *file);
int zzip_errno(int err);
const char *zzip_strerror(int err);
#endif
