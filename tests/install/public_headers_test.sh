#!/usr/bin/env bash
# public_headers_test.sh SOURCE_DIR CXX [MPI_INCLUDE_DIR...]: the public headers (lib/include, what `make install`
# ships) stand alone and pull in none of the runtime's internals (ctest public_headers, label
# unit).
#
# Every header under lib/include is compiled on its own with lib/include as the only include
# directory of the tree, as an outside program sees the installed package, and the headers it
# reads, transitively (the compiler's -M list), must all lie under lib/include and be none of the
# internal ones by name: the transport and clock seam (seam.hpp, clocks.hpp, pvm_transport.hpp,
# sim.hpp), the wire (wire.hpp), the messages (protocol.hpp, messenger.hpp), the network
# (network.hpp), the protocol table (strategy_table.hpp), a loop's session (loop_session.hpp, chooser.hpp),
# PVM's headers. The check is run once on an internal header first, which it must refuse.
# dlb/mpi.hpp (a user's MPI program) also needs MPI's headers, from MPI_INCLUDE_DIR (the
# directories CMake found MPI's in); without them (a build without MPI) it is left out.
set -euo pipefail
source=$(cd "$1" && pwd)
cxx=$2
shift 2
mpi_include=("$@")
include=$source/lib/include
forbidden='/(seam|clocks|pvm_transport|sim|wire|protocol|messenger|network|strategy_table|loop_session|chooser|runtime_internals)\.hpp$|/pvm/|/pvm3\.h$'
fail() { echo "FAIL: $*" >&2; exit 1; }

# check HEADER INCLUDE_DIR...: prints what is wrong with HEADER (nothing if it is public-clean).
check() {
  local header=$1
  shift
  local flags=()
  for d in "$@"; do flags+=(-I "$d"); done
  local deps
  if ! deps=$(echo "#include \"$header\"" |
      "$cxx" -std=c++20 -fsyntax-only -M -x c++ - "${flags[@]}" 2>&1); then
    echo "$header does not compile with ${*} alone: $(echo "$deps" | head -3)"
    return
  fi
  deps=$(echo "$deps" | tr ' \\' '\n\n' | grep -v -e '^$' -e ':$' -e '^-$' || true)
  echo "$deps" | grep -E "$forbidden" | sed "s|^|$header pulls in an internal header: |" || true
  echo "$deps" | grep -F "$source/" | grep -vF "$include/" |
    sed "s|^|$header reads a header outside lib/include: |" || true
}

# The check finds what it should: an internal header, given its own directory, is refused.
found=$(check dlb/runtime/protocol.hpp "$include" "$source/lib/runtime/internal")
[[ -n $found ]] || fail "the check passed dlb/runtime/protocol.hpp, an internal header"

count=0
while IFS= read -r -d '' h; do
  rel=${h#"$include"/}
  if [[ $rel == dlb/mpi.hpp ]]; then
    [[ ${#mpi_include[@]} -gt 0 ]] || continue
    found=$(check "$rel" "$include" "${mpi_include[@]}")
  else
    found=$(check "$rel" "$include")
  fi
  [[ -z $found ]] || fail "$found"
  count=$((count + 1))
done < <(find "$include" -name '*.hpp' -print0 | sort -z)
[[ $count -gt 0 ]] || fail "no public header found under $include"
echo "$count public headers checked: each compiles with lib/include alone, none pulls in an internal header"
