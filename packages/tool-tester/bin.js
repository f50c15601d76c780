#!/bin/sh
":" /*
# A POSIX sh launcher first (JavaScript reads a string and a comment here), then the bin in
# JavaScript below. The commands that load tools start in Bun rather than Node when the bun
# engine will run them and its Bun is one an earlier run used as its engine (listed in
# tool-tester's cache): a cold run then starts one runtime, not two. Everything else, and any
# doubt, goes to Node, and the CLI sends back to Node whatever this guessed wrong.
# docs/cli.md, "How tool-tester starts"; src/cli/bun-host.ts.
set -f
case $1 in list | schema | run | doctor | fuzz) ;; *) exec node "$0" "$@" ;; esac
engine=${TOOL_TESTER_ENGINE:-auto}
binary=${TOOL_TESTER_ENGINE_BINARY:-}
source=env
next=
for argument; do
  case $next in
    engine) engine=$argument ;;
    binary) binary=$argument source=option ;;
  esac
  next=
  case $argument in
    --) break ;;
    -h | --help | --watch) exec node "$0" "$@" ;;
    --engine) next=engine ;;
    --engine=*) engine=${argument#--engine=} ;;
    --engine-binary) next=binary ;;
    --engine-binary=*) binary=${argument#--engine-binary=} source=option ;;
  esac
done
case $engine in auto | bun) ;; *) exec node "$0" "$@" ;; esac
if [ -z "$binary" ]; then
  source=path
  IFS=:
  for folder in $PATH; do
    folder=${folder%/}
    if [ -n "$folder" ] && [ -f "$folder/opencode" ] && [ -x "$folder/opencode" ]; then
      binary=$folder/opencode
      break
    fi
  done
  unset IFS
fi
# The path as the CLI names it: absolute, without ./ (the list holds it so).
while :; do case $binary in ./*) binary=${binary#./} ;; *) break ;; esac; done
case $binary in "" | /*) ;; *) binary=$PWD/$binary ;; esac
if [ -d "$HOME/Library/Caches" ] && [ "$(uname)" = Darwin ]; then
  hosts=$HOME/Library/Caches/opencode-tool-tester/bun-hosts
else
  hosts=${XDG_CACHE_HOME:-$HOME/.cache}/opencode-tool-tester/bun-hosts
fi
# Lines of the list: the path a Bun is found by, a tab, the Bun.
tab='	'
host=
if [ -n "$binary" ] && [ -f "$hosts" ] && ! [ "$binary" -nt "$hosts" ]; then
  while IFS=$tab read -r seen listed; do
    if [ "$seen" = "$binary" ] && [ -x "$listed" ] && ! [ "$listed" -nt "$hosts" ]; then host=$listed; fi
  done <"$hosts"
fi
# With no Node to start, the Bun found is the only runtime there is, listed or not.
if [ -z "$host" ] && [ -n "$binary" ] && [ -x "$binary" ] && ! command -v node >/dev/null 2>&1; then host=$binary; fi
if [ -n "$host" ]; then TOOL_TESTER_BUN_HOST=$source:$host BUN_BE_BUN=1 exec "$host" "$0" "$@"; fi
exec node "$0" "$@"
*/
// Checks the Node version before loading the CLI, which needs a recent Node and would fail on an
// older one with an error that says nothing about versions. Keep this file in syntax any Node
// since 14 parses.
// In Bun (the launcher's doing), the engine is started before the CLI loads (src/cli/bun-early.ts).
if (typeof process.versions.bun === "string")
  import("./dist/cli/bun-early.js").then((early) => {
    early.startBunHost(process.argv.slice(2), process.env)
    return import("./dist/cli/main.js")
  })
else
  import("./dist/cli/node-version.js").then(({ EXIT_NODE_TOO_OLD, nodeVersionProblem }) => {
    const problem = nodeVersionProblem(process.versions.node)
    if (problem) {
      process.stderr.write(`${problem}\n`)
      process.exitCode = EXIT_NODE_TOO_OLD
    } else {
      import("./dist/cli/main.js")
    }
  })
