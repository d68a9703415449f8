#!/usr/bin/env bash
# Runs the real launcher under Xvfb and saves one PNG per screen (and fails if the window
# does not open or dies): the CI smoke test of the window, and the README's pictures.
#
#   tests/screenshots.sh [OUT_DIR]        (default: target/screenshots)
#
# Needs xvfb-run, Mesa (OpenGL in software) and ImageMagick's `import` (see .ci/run).
# VEILLEE_UI_START opens a given screen at start: library, saved, settings, setup:GAME,
# rules:GAME, resume:SESSION, replay:SESSION[:MOVE].
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/screenshots}
mkdir -p "$out"
# VEILLEE_BIN: an already built binary (CI passes the one `cargo test` built).
if [ -z "${VEILLEE_BIN:-}" ]; then
    cargo build --locked -p veillee
    cargo build --locked -p veillee-app --example layouts
fi
bin=${VEILLEE_BIN:-${CARGO_TARGET_DIR:-target}/debug/veillee}
# Every board layout in one window (`cargo test` builds it beside the binary).
layouts=$(dirname "$bin")/examples/layouts
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
export VEILLEE_DATA_DIR="$data"
export LIBGL_ALWAYS_SOFTWARE=1

# Compile the built-in games once (cached in the data directory), and play a few moves of
# Siège in the terminal so that the play screen shows a game in progress.
"$bin" games >/dev/null
session=$(printf 'lord-d6\nc0-d2\nd5-d4\nd0-c2\nq\n' \
    | "$bin" play siege --seats human,human --seed 7 --lang en \
    | sed -n 's/.*session \([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$session" ] || { echo "could not prepare a session" >&2; exit 1; }

# A three-player Castel game (one human, two bots) a few turns in: hands face up and down,
# the exchange, cards on and around the castle.
castel=$(printf '3\n3\n3\n3\n3\n3\n3\n3\nq\n' \
    | "$bin" play castel --seats human,bot,bot --seed 11 --lang en \
    | sed -n 's/.*session \([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$castel" ] || { echo "could not prepare a Castel session" >&2; exit 1; }

# Le Renard et les Poules a few moves in: the cross of points and lines, a hen eaten.
renard=$(printf 'c3-c4\nd4xb4\nd3-d4\nq\n' \
    | "$bin" play renard --seats human,human --seed 3 --lang en \
    | sed -n 's/.*session \([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$renard" ] || { echo "could not prepare a Renard session" >&2; exit 1; }

# Roc noir a few rolls in: the die drawn with its face on top, each seat's ropes and knights.
roc=$(printf '1\n1\n1\n1\n1\nq\n' \
    | "$bin" play roc-noir --seats human,bot --seed 5 --lang en \
    | sed -n 's/.*session \([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$roc" ] || { echo "could not prepare a roc noir session" >&2; exit 1; }

shoot() { # NAME START LANG [WIDTHxHEIGHT] [SCALE] [SECONDS]
    local name=$1 start=$2 lang=$3 size=${4:-1366x860} scale=${5:-} wait=${6:-6}
    VEILLEE_UI_START="$start" VEILLEE_UI_SIZE="$size" VEILLEE_UI_SCALE="$scale" \
        xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
        "$0" --lang "$1" & pid=$!
        sleep "$3"
        if ! kill -0 "$pid" 2>/dev/null; then echo "the window did not stay open" >&2; exit 1; fi
        # The pointer out of the way (it rests mid-screen, where a card would show its tooltip).
        if command -v xdotool >/dev/null; then xdotool mousemove 1 1; sleep 1; fi
        import -window root "$2"
        kill "$pid"; wait "$pid" 2>/dev/null || true
    ' "$bin" "$lang" "$out/$name.png" "$wait"
    echo "saved $out/$name.png"
}

# The library once every game is prepared in the background and has its picture.
shoot library library en 1366x860 "" 30
shoot play-renard "resume:$renard" en
if [ -x "$layouts" ]; then
    xvfb-run -a -s "-screen 0 1366x860x24" bash -c '
        "$0" & pid=$!
        sleep 5
        if ! kill -0 "$pid" 2>/dev/null; then echo "the layouts window did not stay open" >&2; exit 1; fi
        import -window root "$1"
        kill "$pid"; wait "$pid" 2>/dev/null || true
    ' "$layouts" "$out/layouts.png"
    echo "saved $out/layouts.png"
fi
shoot setup setup:siege en
shoot play "resume:$session" en
shoot play-castel "resume:$castel" en
# The smallest screen the launcher is made for: Castel's hand and scores without scrolling.
shoot play-castel-1024 "resume:$castel" en 1024x600
shoot play-roc-noir "resume:$roc" en
shoot saved saved en
# A replay of the Castel game, as a spectator, a few moves in.
shoot replay "replay:$castel:6" en
shoot library-768 library en 1366x768
shoot rules rules:siege en
shoot settings settings fr
shoot bibliotheque library fr
shoot library-1080p library en 1920x1080
shoot play-castel-1080p "resume:$castel" en 1920x1080
shoot play-scale150 "resume:$session" en 1366x860 1.5
shoot setup-scale150 setup:castel fr 1366x860 1.5
