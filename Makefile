# OpenBench convention: `make EXE=name` builds the engine as `name`.
EXE ?= catena
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all bench clean

all:
	$(CARGO) build --release --bin catena
	cp $(TARGET_DIR)/release/catena $(EXE)

bench: all
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
