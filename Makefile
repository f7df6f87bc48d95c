# OpenBench's and Stockfish's convention: `make EXE=name ARCH=arch` builds
# the engine as `name` for the processors `arch` names:
#   x86-64     any x86-64 processor (the default, as `cargo build` builds)
#   x86-64-v2  with POPCNT and SSE4.2 (most processors since 2009)
#   x86-64-v3  with BMI2 and AVX2 (most since 2013-2015)
#   native     this machine's processor only
# README.md ("Building") gives the speed of each.
EXE ?= catena
ARCH ?= x86-64
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all bench clean

all:
	RUSTFLAGS="$(RUSTFLAGS) -C target-cpu=$(ARCH)" $(CARGO) build --release --bin catena
	cp $(TARGET_DIR)/release/catena $(EXE)

bench: all
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
