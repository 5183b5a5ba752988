#!/bin/sh
# Runs the IR parser fuzzer: tests/fuzz/run.sh BUILD_DIR SECONDS
#
# Configures BUILD_DIR with clang and TRITIUM_BUILD_FUZZER=ON if it has no
# CMake cache yet, builds tritium-parser-fuzzer, and fuzzes for SECONDS
# seconds. New inputs go to BUILD_DIR/fuzz-corpus (the seeds in
# tests/fuzz/corpus are only read); a crashing input is saved as
# BUILD_DIR/fuzz-crash-* and the script exits non-zero.
set -eu

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
BUILD=$1
SECONDS_TO_RUN=$2
SRC=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$SRC" -B "$BUILD" -G Ninja \
    -DTRITIUM_BUILD_FUZZER=ON -DTRITIUM_BUILD_PYTHON=OFF
fi
cmake --build "$BUILD" --target tritium-parser-fuzzer

# A dictionary of the words of the IR (opcodes, attribute keys, enum values)
# taken from the .def files, so the fuzzer need not guess them.
DICT="$BUILD/tir.dict"
{
  sed -n 's/^[A-Z_]*OP([A-Za-z0-9]*, *\("[a-z0-9_]*"\).*/\1/p' "$SRC/ir/Ops.def"
  sed -n 's/^ATTR([A-Za-z0-9]*, *\("[a-z0-9_]*"\).*/\1/p' "$SRC/ir/Attributes.def"
  sed -n 's/^ENUM_VALUE([A-Za-z0-9]*, *\("[a-z0-9_]*"\).*/\1/p' "$SRC/ir/Attributes.def"
  for W in kernel func noinline ptr void i1 i8 i16 i32 i64 f8e4m3 f8e5m2 f8e4b15 \
           f16 bf16 f32 f64 inf nan -inf -nan loc bb0 bb1 " x " divisibility \
           equal_to_1 constant noalias "->" " = " " : " ", "; do
    printf '"%s"\n' "$W"
  done
} > "$DICT"

mkdir -p "$BUILD/fuzz-corpus"
"$BUILD/bin/tritium-parser-fuzzer" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
  -dict="$DICT" -artifact_prefix="$BUILD/fuzz-" -print_final_stats=1 \
  "$BUILD/fuzz-corpus" "$SRC/tests/fuzz/corpus"
