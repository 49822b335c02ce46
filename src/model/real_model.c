/* A GPT-2-family model from its files' bytes; see real_model.h. */
#include "real_model.h"

#include "../core/i18n.h"
#include "../core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool real_model_load(Real_Model *m, const Real_Model_Files *files, char *err, size_t errsz) {
    Real_Model out = {0};
    if (!gpt2_config_parse(files->config, files->config_len, files->config_name, &out.config, err,
                           errsz))
        return false;
    if (!st_parse(files->weights, files->weights_size, files->weights_name, &out.st, err, errsz))
        return false;
    if (!gpt2_tensors(&out.st, &out.config, &out.tensors, err, errsz)) {
        st_free(&out.st);
        return false;
    }
    if (!gpt2_weights(&out.st, files->weights, &out.config, &out.tensors, &out.weights, err,
                      errsz)) {
        gpt2_tensors_free(&out.tensors);
        st_free(&out.st);
        return false;
    }
    bool ok = files->vocab
                  ? bpe_load(&out.bpe, files->vocab, files->vocab_len, files->vocab_name,
                             files->merges, files->merges_len, files->merges_name, err, errsz)
                  : bpe_load_tokenizer_json(&out.bpe, files->tokenizer, files->tokenizer_len,
                                            files->tokenizer_name, err, errsz);
    if (ok && out.bpe.count > out.config.vocab_size) {
        ok = text_fail(err, errsz, _("%s: %d tokens, more than the config's vocab_size %d"),
                       files->vocab ? files->vocab_name : files->tokenizer_name, (int)out.bpe.count,
                       out.config.vocab_size);
        bpe_free(&out.bpe);
    }
    if (!ok) {
        gpt2_weights_free(&out.weights);
        gpt2_tensors_free(&out.tensors);
        st_free(&out.st);
        return false;
    }
    *m = out;
    return true;
}

void real_model_free(Real_Model *m) {
    bpe_free(&m->bpe);
    gpt2_weights_free(&m->weights);
    gpt2_tensors_free(&m->tensors);
    st_free(&m->st);
    memset(m, 0, sizeof *m);
}

int real_model_tokenize(const Real_Model *m, const char *text, size_t len, int32_t *ids, char *err,
                        size_t errsz) {
    if (len == 0) {
        text_fail(err, errsz, "%s", _("the text is empty: give the model at least one token"));
        return -1;
    }
    int max = m->config.n_positions;
    int n = bpe_encode(&m->bpe, text, len, ids, max, err, errsz);
    if (n == BPE_TOO_MANY) {
        text_fail(err, errsz,
                  _("the text is more than %d tokens, the most this model reads (n_positions)"),
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
