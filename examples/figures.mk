# SPDX-License-Identifier: GPL-3.0-or-later
# examples/figures.mk: the figure check every example shares.  An example's
# Makefile sets FIGURES (and AWK) and includes this file; `make
# check-figures` then requires every figure to be an 800 x 600 PNG
# (checked from its signature and IHDR chunk, without any image tool).
check-figures: $(FIGURES)
	@fail=0; for f in $(FIGURES); do \
	  sig=$$(od -An -tx1 -N8 $$f | tr -d ' \n'); \
	  wh=$$(od -An -tu1 -j16 -N8 $$f | $(AWK) '{ print $$3 * 256 + $$4 "x" $$7 * 256 + $$8 }'); \
	  if test "$$sig" = 89504e470d0a1a0a && test "$$wh" = 800x600; then echo "ok: $$f is an 800x600 PNG"; \
	  else echo "FAIL: $$f: signature $$sig, size $$wh"; fail=1; fi; \
	done; test $$fail = 0
.PHONY: check-figures
