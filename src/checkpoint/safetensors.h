/* The safetensors format, read from bytes the platform hands in (a mapped
 * file): an 8-byte little-endian header length N, N bytes of JSON naming each
 * tensor's dtype, shape and [begin, end) byte offsets in the data that
 * follows, then the data. Every header field is checked before any tensor is
 * read, and each problem is one line naming the file.
 *
 *   bool st_parse(const uint8_t *bytes, uint64_t size, const char *path, St_File *f, char *err,
 *                 size_t errsz)
 *       the header of a file of `size` bytes; false (f untouched, err "PATH: problem") when:
 *       shorter than 8 bytes; N is 0, past ST_MAX_HEADER or past the file; the header holds
 *       more than ST_MAX_VALUES JSON values or nests deeper than ST_MAX_DEPTH (counted before
 *       any tree is built, so its cost is bounded); the header is not strict JSON (json_strict.h)
 * or not an object; a tensor lacks dtype, shape or data_offsets or has another field; a dtype is
 * unknown or not F32, F16 or BF16; a shape has more than ST_MAX_DIMS dimensions, or one that is not
 * a whole number from 0 to 2^40; offsets that are not two whole numbers begin <= end inside the
 * data; a byte count that is not the shape's; two tensors' bytes overlap; more than ST_MAX_TENSORS
 * tensors; a name longer than ST_MAX_NAME − 1 bytes. `__metadata__` must be an object of strings
 *   void st_free(St_File *f)
 *   const St_Tensor *st_find(const St_File *f, const char *name)
 *       the tensor called name, or "transformer." + name (GPT-2's files have both kinds);
 *       NULL if neither
 *   const St_Tensor *st_set_find(const St_Set *s, const char *name, const char *alias,
 *                                int *count)
 *       the tensor called name, or (alias not NULL) alias + name, in any file of the set;
 *       *count says how many tensors answer to either (more than one is a checkpoint that
 *       does not say which is the weight). NULL if none
 *   bool st_index_parse(const char *text, size_t len, const char *name, St_Index *ix,
 *                       char *err, size_t errsz)
 *       model.safetensors.index.json: an object whose weight_map maps each tensor name to
 *       the file holding it. Files are plain names ending in .safetensors (no folder, no
 *       "..": a shard is never read from outside the checkpoint), at most ST_MAX_SHARDS of
 *       them; ix->file lists each once, in the order they first appear. False with
 *       "NAME: problem"
 *   void st_index_free(St_Index *ix)
 *   bool st_index_check(const St_Index *ix, const St_Set *s, const char *index_name,
 *                       char *err, size_t errsz)
 *       every tensor the index names is in the file it names, and every tensor of the set
 *       is in the index; else one line naming the first that is not
 *   uint64_t st_elements(const St_Tensor *t)
 *       the product of its shape (1 for a scalar)
 *   bool st_read_f32(const St_File *f, const St_Tensor *t, const uint8_t *bytes, float *dest,
 *                    char *err, size_t errsz)
 *       its elements widened to float32 into dest (st_elements of them), from the bytes
 *       st_parse checked; false with "PATH: tensor NAME: element K is NaN" (or infinite)
 *   const char *st_dtype_name(St_Dtype d)
 */
#ifndef ATTN_SAFETENSORS_H
#define ATTN_SAFETENSORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ST_MAX_HEADER  (100u << 20) /* the format's own limit: 100 MB of JSON */
#define ST_MAX_TENSORS 4096
#define ST_MAX_VALUES  65536 /* JSON values in a header: 4096 tensors need at most 53,000 */
#define ST_MAX_DEPTH   3     /* {"name": {"shape": [...]}} */
#define ST_STR_(x)     #x
#define ST_STR(x)      ST_STR_(x)
#define ST_MAX_DIMS    8
#define ST_MAX_NAME    256
#define ST_MAX_PATH    512

typedef enum St_Dtype { ST_F32 = 0, ST_F16, ST_BF16 } St_Dtype;

typedef struct St_Tensor {
    char name[ST_MAX_NAME];
    St_Dtype dtype;
    int dims;
    uint64_t shape[ST_MAX_DIMS];
    uint64_t begin, end; /* bytes, from the start of the data (8 + N into the file) */
} St_Tensor;

#define ST_MAX_SHARDS 64 /* Llama 3 70B has 30; a checkpoint of more is refused by name */

typedef struct St_File {
    char path[ST_MAX_PATH];
    uint64_t data_start; /* 8 + N */
    uint64_t size;       /* of the whole file */
    int count;
    St_Tensor *tensors; /* malloc'd, in the header's order */
} St_File;

/* The files of one checkpoint: its one model.safetensors, or its shards. */
typedef struct St_Set {
    int count;
    St_File file[ST_MAX_SHARDS];
    const uint8_t *bytes[ST_MAX_SHARDS];
} St_Set;

/* A shard index: the files, and for each tensor it names, its file. */
typedef struct St_Index {
    int files;
    char file[ST_MAX_SHARDS][ST_MAX_NAME];
    int count;
    char (*name)[ST_MAX_NAME]; /* count of them, malloc'd */
    uint8_t *shard;            /* count: the index in file[] */
} St_Index;

bool st_parse(const uint8_t *bytes, uint64_t size, const char *path, St_File *f, char *err,
              size_t errsz);
void st_free(St_File *f);
const St_Tensor *st_find(const St_File *f, const char *name);
const St_Tensor *st_set_find(const St_Set *s, const char *name, const char *alias, int *count);
bool st_index_parse(const char *text, size_t len, const char *name, St_Index *ix, char *err,
                    size_t errsz);
void st_index_free(St_Index *ix);
bool st_index_check(const St_Index *ix, const St_Set *s, const char *index_name, char *err,
                    size_t errsz);
uint64_t st_elements(const St_Tensor *t);
bool st_read_f32(const St_File *f, const St_Tensor *t, const uint8_t *bytes, float *dest, char *err,
                 size_t errsz);
const char *st_dtype_name(St_Dtype d);

#endif
