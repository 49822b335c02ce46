/* Finding and mapping a checkpoint; see checkpoint.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool has_config(const char *dir) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/config.json", dir);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Why DIR/config.json is not a file to read: "" when it is one. */
static const char *config_problem(const char *dir) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/config.json", dir);
    if (stat(path, &st) != 0) return "";
    if (S_ISDIR(st.st_mode)) return _("its config.json is a folder, not a file");
    if (!S_ISREG(st.st_mode))
        return _("its config.json is not a regular file (a pipe or a device?)");
    return NULL;
}

/* A name a hub repository can have: letters, digits, - _ . and one /, no
 * "..", not starting with a dot or a slash. */
static bool hub_name(const char *s) {
    int slashes = 0;
    if (!*s || *s == '.' || *s == '/' || strstr(s, "..") || strlen(s) > 200) return false;
    for (const char *p = s; *p; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.' || *p == '/';
        if (!ok) return false;
        slashes += *p == '/';
    }
    return slashes <= 1 && s[strlen(s) - 1] != '/';
}

/* The hub cache folder in force, and what it came from; false with *from
 * naming the variable whose value does not fit, or NULL when none is set. */
static bool cache_root(char *dest, size_t size, const char **from) {
    static const struct {
        const char *var, *from, *under;
    } roots[] = {{"HF_HUB_CACHE", "$HF_HUB_CACHE", ""},
                 {"HF_HOME", "$HF_HOME/hub", "/hub"},
                 {"HOME", "~/.cache/huggingface/hub", "/.cache/huggingface/hub"}};
    for (size_t k = 0; k < sizeof roots / sizeof *roots; k++) {
        const char *v = getenv(roots[k].var);
        if (!v || !*v) continue;
        *from = roots[k].from;
        return snprintf(dest, size, "%s%s", v, roots[k].under) < (int)size;
    }
    *from = NULL;
    return false;
}

bool checkpoint_find(const char *path_or_name, char *dir, size_t size, char *err, size_t errsz) {
    struct stat st;
    bool there = stat(path_or_name, &st) == 0;
    if (there && S_ISDIR(st.st_mode)) {
        const char *why = config_problem(path_or_name);
        if (why && *why) {
            snprintf(err, errsz, _("%s: not a checkpoint folder: %s"), path_or_name, why);
            return false;
        }
        if (why) {
            snprintf(err, errsz,
                     _("%s: not a checkpoint folder: it has no config.json (a Hugging Face "
                       "checkpoint folder holds config.json, model.safetensors and its "
                       "tokenizer's files)"),
                     path_or_name);
            return false;
        }
        if (snprintf(dir, size, "%s", path_or_name) >= (int)size) {
            snprintf(err, errsz, _("%s: the path is too long"), path_or_name);
            return false;
        }
        return true;
    }
    if (there) { /* a file: its folder is what --model takes */
        snprintf(err, errsz, _("%s: a file, not a folder: give the folder that holds config.json"),
                 path_or_name);
        return false;
    }
    const char *from = NULL;
    char root[2048];
    if (!hub_name(path_or_name)) {
        snprintf(err, errsz, _("%s: no such folder"), path_or_name);
        return false;
    }
    if (!cache_root(root, sizeof root, &from)) {
        if (from)
            snprintf(err, errsz,
                     _("%s: no such folder, and %s is too long a path to look in (%zu bytes at "
                       "most)"),
                     path_or_name, from, sizeof root - 1);
        else
            snprintf(err, errsz,
                     _("%s: no such folder, and no cache to look in (HF_HUB_CACHE, HF_HOME and "
                       "HOME are not set)"),
                     path_or_name);
        return false;
    }
    char repo[2400], name[256];
    snprintf(name, sizeof name, "%s", path_or_name);
    char *slash = strchr(name, '/');
    if (slash) *slash = '\0';
    snprintf(repo, sizeof repo, "%s/models--%s%s%s", root, name, slash ? "--" : "",
             slash ? slash + 1 : "");
    /* refs/main names the revision; else the newest snapshot with a config */
    char rev[128] = "", snap[2800];
    char refs[2500];
    snprintf(refs, sizeof refs, "%s/refs/main", repo);
    FILE *f = fopen(refs, "r");
    if (f) {
        if (fgets(rev, sizeof rev, f)) rev[strcspn(rev, "\r\n")] = '\0';
        fclose(f);
    }
    bool found = false;
    if (rev[0] && !strchr(rev, '/') && strcmp(rev, "..")) {
        snprintf(snap, sizeof snap, "%s/snapshots/%s", repo, rev);
        found = has_config(snap);
    }
    if (!found) {
        char snaps[2500];
        snprintf(snaps, sizeof snaps, "%s/snapshots", repo);
        DIR *d = opendir(snaps);
        time_t newest = 0;
        for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
            if (e->d_name[0] == '.') continue;
            char cand[2800];
            snprintf(cand, sizeof cand, "%s/%s", snaps, e->d_name);
            if (stat(cand, &st) != 0 || !S_ISDIR(st.st_mode) || !has_config(cand)) continue;
            if (!found || st.st_mtime > newest) {
                snprintf(snap, sizeof snap, "%s", cand);
                newest = st.st_mtime;
                found = true;
            }
        }
        if (d) closedir(d);
    }
    if (!found) {
        snprintf(err, errsz,
                 _("%s: no such folder, and not in the Hugging Face cache (looked in %s, %s); "
                   "attnlab never downloads: copy a checkpoint folder there or name its path"),
                 path_or_name, from, repo);
        return false;
    }
    if (snprintf(dir, size, "%s", snap) >= (int)size) {
        snprintf(err, errsz, _("%s: the path is too long"), snap);
        return false;
    }
    return true;
}

bool checkpoint_map(const char *path, Mapped_File *m, uint64_t max, char *err, size_t errsz) {
    int fd = open(path, O_RDONLY | O_NONBLOCK); /* a FIFO must not hold us */
    if (fd < 0) {
        snprintf(err, errsz, _("%s: cannot open: %s"), path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errsz, _("%s: not a regular file"), path);
        close(fd);
        return false;
    }
    if (st.st_size <= 0 || (uint64_t)st.st_size > max || (uint64_t)st.st_size > SIZE_MAX) {
        snprintf(err, errsz,
                 st.st_size <= 0 ? _("%s: the file is empty")
                                 : _("%s: %lld bytes, more than the %llu read here"),
                 path, (long long)st.st_size, (unsigned long long)max);
        close(fd);
        return false;
    }
    /* read into memory of our own, not mapped: a mapped file that shrinks
     * under the app (another checkpoint copied over it) faults on the next
     * read of a tensor, and the window died of SIGBUS */
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *p = malloc(size);
    if (!p) {
        snprintf(err, errsz, _("%s: out of memory for its %lld bytes"), path,
                 (long long)st.st_size);
        close(fd);
        return false;
    }
    while (got < size) {
        ssize_t n = read(fd, p + got, size - got > (1u << 30) ? (1u << 30) : size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0)
                snprintf(err, errsz, _("%s: cannot read: %s"), path, strerror(errno));
            else
                snprintf(err, errsz, _("%s: the file changed while it was read"), path);
            free(p);
            close(fd);
            return false;
        }
        got += (size_t)n;
    }
    close(fd);
    m->bytes = p;
    m->size = (uint64_t)st.st_size;
    return true;
}

void checkpoint_unmap(Mapped_File *m) {
    free((void *)m->bytes);
    m->bytes = NULL;
    m->size = 0;
}

static bool exists(const char *dir, const char *name) {
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* dir/name mapped into m, up to max bytes; a missing file says what a
 * checkpoint folder holds. */
static bool map_part(const char *dir, const char *name, Mapped_File *m, uint64_t max, char *err,
                     size_t errsz) {
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (stat(path, &st) != 0 && errno == ENOENT) {
        snprintf(err, errsz,
                 _("%s: no %s; a checkpoint folder holds config.json, model.safetensors (or "
                   "model.safetensors.index.json and its shards), and tokenizer.json (or GPT-2's "
                   "vocab.json and merges.txt)"),
                 dir, name);
        return false;
    }
    return checkpoint_map(path, m, max, err, errsz);
}

static void unmap_all(Checkpoint *ck) {
    checkpoint_unmap(&ck->config);
    checkpoint_unmap(&ck->weights);
    checkpoint_unmap(&ck->vocab);
    checkpoint_unmap(&ck->merges);
    checkpoint_unmap(&ck->tokenizer);
    checkpoint_unmap(&ck->index);
    for (int k = 0; k < ck->shards; k++) checkpoint_unmap(&ck->shard[k]);
    ck->shards = 0;
}

/* The shards model.safetensors.index.json names, each mapped. */
static bool map_shards(Checkpoint *ck, char (*names)[4200], Real_Model_Shard *shard, char *err,
                       size_t errsz) {
    snprintf(names[0], sizeof names[0], "%s/model.safetensors.index.json", ck->dir);
    if (!map_part(ck->dir, "model.safetensors.index.json", &ck->index, REAL_MODEL_MAX_CONFIG * 64,
                  err, errsz))
        return false;
    St_Index ix;
    if (!st_index_parse((const char *)ck->index.bytes, (size_t)ck->index.size, names[0], &ix, err,
                        errsz))
        return false;
    bool ok = true;
    for (int k = 0; k < ix.files && ok; k++) {
        snprintf(names[k + 1], sizeof names[k + 1], "%s/%s", ck->dir, ix.file[k]);
        ok = map_part(ck->dir, ix.file[k], &ck->shard[k], UINT64_C(1) << 40, err, errsz);
        if (ok) {
            ck->shards = k + 1;
            shard[k] = (Real_Model_Shard){ck->shard[k].bytes, names[k + 1], ck->shard[k].size};
        }
    }
    st_index_free(&ix);
    return ok;
}

bool checkpoint_open(const char *path_or_name, Checkpoint *ck, char *err, size_t errsz) {
    Checkpoint *out = calloc(1, sizeof *out);
    static char shard_names[ST_MAX_SHARDS + 1][4200];
    static Real_Model_Shard shard[ST_MAX_SHARDS];
    if (!out) {
        snprintf(err, errsz, "%s", _("out of memory"));
        return false;
    }
    bool ok = checkpoint_find(path_or_name, out->dir, sizeof out->dir, err, errsz) &&
              map_part(out->dir, "config.json", &out->config, REAL_MODEL_MAX_CONFIG, err, errsz);
    bool sharded = ok && !exists(out->dir, "model.safetensors") &&
                   exists(out->dir, "model.safetensors.index.json");
    if (ok && sharded)
        ok = map_shards(out, shard_names, shard, err, errsz);
    else if (ok)
        ok = map_part(out->dir, "model.safetensors", &out->weights, UINT64_C(1) << 40, err, errsz);
    /* vocab.json and merges.txt, or else tokenizer.json (which holds both) */
    bool pair = (exists(out->dir, "vocab.json") && exists(out->dir, "merges.txt")) ||
                !exists(out->dir, "tokenizer.json");
    if (ok && pair)
        ok = map_part(out->dir, "vocab.json", &out->vocab, REAL_MODEL_MAX_VOCAB, err, errsz) &&
             map_part(out->dir, "merges.txt", &out->merges, REAL_MODEL_MAX_MERGES, err, errsz);
    else if (ok)
        ok = map_part(out->dir, "tokenizer.json", &out->tokenizer, REAL_MODEL_MAX_TOKENIZER, err,
                      errsz);
    if (ok) {
        char names[5][4200];
        snprintf(names[0], sizeof names[0], "%s/config.json", out->dir);
        snprintf(names[1], sizeof names[1], "%s/model.safetensors", out->dir);
        snprintf(names[2], sizeof names[2], "%s/vocab.json", out->dir);
        snprintf(names[3], sizeof names[3], "%s/merges.txt", out->dir);
        snprintf(names[4], sizeof names[4], "%s/tokenizer.json", out->dir);
        Real_Model_Files files = {
            .config = (const char *)out->config.bytes,
            .config_name = names[0],
            .config_len = (size_t)out->config.size,
            .weights = out->weights.bytes,
            .weights_name = names[1],
            .weights_size = out->weights.size,
            .vocab = (const char *)out->vocab.bytes,
            .vocab_name = names[2],
            .vocab_len = (size_t)out->vocab.size,
            .merges = (const char *)out->merges.bytes,
            .merges_name = names[3],
            .merges_len = (size_t)out->merges.size,
            .tokenizer = (const char *)out->tokenizer.bytes,
            .tokenizer_name = names[4],
            .tokenizer_len = (size_t)out->tokenizer.size,
            .shards = sharded ? out->shards : 0,
            .shard = shard,
            .index = (const char *)out->index.bytes,
            .index_name = shard_names[0],
            .index_len = (size_t)out->index.size,
        };
        ok = real_model_load(&out->model, &files, err, errsz);
    }
    if (ok)
        *ck = *out;
    else
        unmap_all(out);
    free(out);
    return ok;
}

void checkpoint_close(Checkpoint *ck) {
    real_model_free(&ck->model);
    unmap_all(ck);
}
