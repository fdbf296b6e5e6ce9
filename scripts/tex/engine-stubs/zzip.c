/* See include/zzip/zzip.h: every open fails with ENOSYS. */
#include "zzip/zzip.h"
ZZIP_DIR *zzip_dir_open(const char *name, zzip_error_t *err) { (void)name; if (err) *err = ENOSYS; errno = ENOSYS; return 0; }
int zzip_closedir(ZZIP_DIR *dir) { (void)dir; return 0; }
ZZIP_DIRENT *zzip_readdir(ZZIP_DIR *dir) { (void)dir; return 0; }
void zzip_rewinddir(ZZIP_DIR *dir) { (void)dir; }
ZZIP_FILE *zzip_file_open(ZZIP_DIR *dir, const char *name, int flags) { (void)dir; (void)name; (void)flags; errno = ENOSYS; return 0; }
ZZIP_FILE *zzip_open(const char *name, int flags) { (void)name; (void)flags; errno = ENOSYS; return 0; }
ZZIP_FILE *zzip_open_ext_io(const char *name, int flags, int modes, zzip_strings_t *ext, void *io) { (void)name; (void)flags; (void)modes; (void)ext; (void)io; errno = ENOSYS; return 0; }
int zzip_fclose(ZZIP_FILE *file) { (void)file; return 0; }
zzip_ssize_t zzip_fread(void *ptr, zzip_size_t size, zzip_size_t nmemb, ZZIP_FILE *file) { (void)ptr; (void)size; (void)nmemb; (void)file; return 0; }
zzip_off_t zzip_seek(ZZIP_FILE *file, zzip_off_t offset, int whence) { (void)file; (void)offset; (void)whence; return -1; }
zzip_off_t zzip_tell(ZZIP_FILE *file) { (void)file; return -1; }
int zzip_errno(int err) { return err; }
const char *zzip_strerror(int err) { (void)err; return "zip archives are not read here"; }
