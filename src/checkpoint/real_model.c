/* A GPT-2-family model from its files' bytes; see real_model.h. */
#include "real_model.h"

#include "../core/i18n.h"
#include "../core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void free_set(St_Set *s) {
    for (int k = 0; k < s->count; k++) st_free(&s->file[k]);
    s->count = 0;
}

/* The weights' files: one, or the index's shards (each named in the index,
 * each holding what the index says). */
static bool read_weights(const Real_Model_Files *files, St_Set *s, char *err, size_t errsz) {
    if (files->shards <= 0) {
        s->count = 1;
        s->bytes[0] = files->weights;
        if (st_parse(files->weights, files->weights_size, files->weights_name, &s->file[0], err,
                     errsz))
            return true;
        s->count = 0;
        return false;
    }
    St_Index ix;
    if (!st_index_parse(files->index, files->index_len, files->index_name, &ix, err, errsz))
        return false;
    bool ok = ix.files == files->shards && files->shards <= ST_MAX_SHARDS;
    if (!ok)
        text_fail(err, errsz, _("%s: it names %d files, %d were given"), files->index_name,
                  ix.files, files->shards);
    for (int k = 0; ok && k < files->shards; k++) {
        const Real_Model_Shard *f = &files->shard[k];
        s->bytes[k] = f->bytes;
        ok = st_parse(f->bytes, f->size, f->name, &s->file[k], err, errsz);
        if (ok) s->count = k + 1;
    }
    if (ok) ok = st_index_check(&ix, s, files->index_name, err, errsz);
    st_index_free(&ix);
    if (!ok) free_set(s);
    return ok;
}

bool real_model_load(Real_Model *m, const Real_Model_Files *files, char *err, size_t errsz) {
    static Real_Model out; /* 40 KB of shard headers: not on the stack */
    memset(&out, 0, sizeof out);
    if (!model_config_parse(files->config, files->config_len, files->config_name, &out.config, err,
                            errsz))
        return false;
    if (!read_weights(files, &out.st, err, errsz)) return false;
    const char *what = files->shards > 0 ? files->index_name : files->weights_name;
    if (!model_weights_load(&out.st, what, &out.config, &out.weights, err, errsz)) {
        free_set(&out.st);
        return false;
    }
    bool ok = files->vocab
                  ? bpe_load(&out.bpe, files->vocab, files->vocab_len, files->vocab_name,
                             files->merges, files->merges_len, files->merges_name, err, errsz)
                  : bpe_load_tokenizer_json(&out.bpe, files->tokenizer, files->tokenizer_len,
                                            files->tokenizer_name, err, errsz);
    if (ok && out.bpe.count > out.config.net.vocab) {
        ok = text_fail(err, errsz, _("%s: %d tokens, more than the config's vocab_size %d"),
                       files->vocab ? files->vocab_name : files->tokenizer_name, (int)out.bpe.count,
                       out.config.net.vocab);
        bpe_free(&out.bpe);
    }
    if (!ok) {
        model_weights_free(&out.weights);
        free_set(&out.st);
        return false;
    }
    *m = out;
    return true;
}

void real_model_free(Real_Model *m) {
    bpe_free(&m->bpe);
    model_weights_free(&m->weights);
    free_set(&m->st);
    memset(m, 0, sizeof *m);
}

int real_model_tokenize(const Real_Model *m, const char *text, size_t len, int32_t *ids, char *err,
                        size_t errsz) {
    if (len == 0) {
        text_fail(err, errsz, "%s", _("the text is empty: give the model at least one token"));
        return -1;
    }
    int max = m->weights.model.positions;
    int n = bpe_encode(&m->bpe, text, len, ids, max, err, errsz);
    if (n == BPE_TOO_MANY) {
        if (max == m->config.positions)
            text_fail(err, errsz,
                      _("the text is more than %d tokens, the most this model reads (n_positions)"),
                      max);
        else
            text_fail(err, errsz,
                      _("the text is more than %d tokens, the most attnlab reads of one text"),
                      max);
        return -1;
    }
    return n;
}

size_t real_model_token_text(const Real_Model *m, int32_t id, char *dest, size_t size) {
    static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
    const char *bytes;
    size_t count = bpe_token_bytes(&m->bpe, id, &bytes), at = 0, used = 0;
    if (size == 0) return 0;
    while (at < count) {
        uint32_t cp;
        size_t step = text_utf8_next(bytes + at, count - at, &cp);
        const char *piece = step ? bytes + at : replacement;
        size_t piece_len = step ? step : 3;
        if (!step) {
            /* skip the rest of the cut or broken sequence: its continuation bytes */
            step = 1;
            while (at + step < count && ((unsigned char)bytes[at + step] & 0xC0) == 0x80) step++;
        }
        if (used + piece_len + 1 > size) break;
        memcpy(dest + used, piece, piece_len);
        used += piece_len;
        at += step;
    }
    dest[used] = '\0';
    return used;
}

size_t real_model_token_label(const Real_Model *m, int32_t id, char *dest, size_t size) {
    const char *bytes;
    size_t count = bpe_token_bytes(&m->bpe, id, &bytes), at = 0, used = 0;
    if (size == 0) return 0;
    while (at < count) {
        uint32_t cp;
        size_t step = text_utf8_next(bytes + at, count - at, &cp);
        char piece[16];
        size_t piece_len;
        if (!step || cp < 0x20 || cp == 0x7F) {
            const char *mark = step && cp == '\n'   ? "\xE2\x86\xB5" /* ↵ */
                               : step && cp == '\t' ? "\xE2\x87\xA5" /* ⇥ */
                                                    : NULL;
            if (mark)
                piece_len = (size_t)snprintf(piece, sizeof piece, "%s", mark);
            else
                piece_len = (size_t)snprintf(piece, sizeof piece, "\xE2\x80\xB9%02x\xE2\x80\xBA",
                                             (unsigned char)bytes[at]); /* ‹e6› */
            step = 1;
        } else if (cp == ' ') {
            piece_len = (size_t)snprintf(piece, sizeof piece, "\xE2\x90\xA3"); /* ␣ */
        } else {
            memcpy(piece, bytes + at, step);
            piece_len = step;
        }
        if (used + piece_len + 1 > size) break;
        memcpy(dest + used, piece, piece_len);
        used += piece_len;
        at += step;
    }
    dest[used] = '\0';
    return used;
}

int real_model_eos(const Real_Model *m, int32_t ids[MODEL_MAX_EOS]) {
    if (m->config.eos_n > 0) {
        memcpy(ids, m->config.eos_ids, sizeof *ids * (size_t)m->config.eos_n);
        return m->config.eos_n;
    }
    ids[0] = bpe_special(&m->bpe);
    return ids[0] >= 0;
}

bool real_model_is_eos(const Real_Model *m, int32_t id) {
    int32_t ids[MODEL_MAX_EOS];
    int n = real_model_eos(m, ids);
    for (int k = 0; k < n; k++)
        if (ids[k] == id) return true;
    return false;
}
