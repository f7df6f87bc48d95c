#!/usr/bin/env bash
# Refreshes the vendored board library, lichess's chessground, from the npm
# registry: its built ES module, its three stylesheets (base, board colours,
# pieces) and its license, with the version in VERSION. Only this script uses
# npm; `cargo build` embeds the files as they are checked in.
#
#   gui/vendor.sh            the version in gui/vendor/chessground/VERSION
#   gui/vendor.sh 9.2.1      another version
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="$here/vendor/chessground"
version="${1:-$(cat "$target/VERSION" 2>/dev/null || echo latest)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
tarball="$(npm pack --silent "chessground@$version")"
tar xzf "$tarball"
mkdir -p "$target"
cp package/dist/chessground.min.js "$target/"
cp package/assets/chessground.base.css package/assets/chessground.brown.css \
   package/assets/chessground.cburnett.css "$target/"
cp package/LICENSE "$target/LICENSE"
node -p 'require("./package/package.json").version' > "$target/VERSION"
node -p 'require("./package/package.json").license' > "$target/LICENSE-ID"
echo "chessground $(cat "$target/VERSION") ($(cat "$target/LICENSE-ID")) in $target"
