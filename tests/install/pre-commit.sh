#!/usr/bin/env bash
# The pre-commit hook for real, with Debian's pre-commit, in a throwaway repository:
#   - the hook repository is a git repo made from this source tree (what `repo:` and
#     `rev:` would fetch), so the hook tested is the one in .pre-commit-hooks.yaml;
#   - a port tiletrans wrote passes (the default --fail-on warning fits ported code),
#     a 32-bit ballot fails, a file under `.tiletrans.yaml` `exclude` is skipped even
#     though pre-commit names it;
#   - tiletrans is found from $TILETRANS, found on PATH, built into pre-commit's cache
#     on first use (and reused), and when none can be had the hook says how to get it;
#   - `pre-commit install` then `git commit` blocks the bad file and takes the good one.
# Usage: pre-commit.sh WORK SOURCE_DIR NPM_TARBALL_DIR   (WORK from build-install.sh)
set -uo pipefail
work=$(realpath "$1"); src=$(realpath "$2"); npm=$(realpath "$3")
T=$work/prefix/bin/tiletrans
command -v pre-commit >/dev/null || { echo "FAIL: pre-commit is not installed (scripts/install-deps.sh installs it)"; exit 1; }
[ -x "$T" ] || { echo "FAIL: no install in $work (install.build)"; exit 1; }
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
pc=$work/pc
rm -rf "$pc"; mkdir -p "$pc/hook" "$pc/proj/vendor"
export NO_COLOR=1 PRE_COMMIT_HOME=$pc/home PRE_COMMIT_COLOR=never
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
# A PATH without any tiletrans (the user has not touched PATH).
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/tiletrans" ] || printf '%s:' "$d"; done)
clean_path=${clean_path%:}

git -C "$src" ls-files -co --exclude-standard -z |
  tar -C "$src" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$pc/hook" -xf -
git -C "$pc/hook" init -q && git -C "$pc/hook" add -A && git -C "$pc/hook" commit -qm hook
rev=$(git -C "$pc/hook" rev-parse HEAD)

cd "$pc/proj" || exit 1
git init -q
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $pc/hook
    rev: $rev
    hooks:
      - id: tiletrans-lint
YAML
printf 'target: hip\nexclude:\n  - vendor/**\n' >.tiletrans.yaml
cat >bad.cu <<'CU'
__global__ void k(int *out, const int *in) {
  unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = __popc(m);
}
CU
cp bad.cu vendor/third_party.cu
"$T" rewrite bad.cu --out "$pc/port" >/dev/null 2>&1
cp "$pc/port/bad.hip" ported.hip || bad "no port written"
git add .pre-commit-config.yaml .tiletrans.yaml ported.hip vendor/third_party.cu

hook() { # hook WANT_RC DESCRIPTION ENV... -- pre-commit ARGS
  local want=$1 what=$2; shift 2
  env "$@" >"$pc/out" 2>&1; local rc=$?
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else bad "$what: exit $rc, expected $want"; cat "$pc/out"; fi
}
says() { if grep -q -- "$1" "$pc/out"; then ok "$2"; else bad "$2: no \`$1\` in the output"; cat "$pc/out"; fi; }

hook 0 "port and excluded vendor file pass" TILETRANS="$T" PATH="$clean_path" pre-commit run --all-files
says "tiletrans lint.*Passed" "the hook ran and passed"
hook 1 "a 32-bit ballot fails the hook" TILETRANS="$T" PATH="$clean_path" pre-commit run --files bad.cu
says "hip-ballot-32bit" "the hook names the finding"
hook 0 "exclude holds for files named on the command line" TILETRANS="$T" PATH="$clean_path" \
  pre-commit run --files vendor/third_party.cu
"$T" lint vendor/third_party.cu bad.cu >"$pc/out" 2>&1
if grep -q "third_party" "$pc/out" || ! grep -q "bad.cu" "$pc/out"; then
  bad "lint did not skip the excluded vendor/third_party.cu (and only it)"; cat "$pc/out"
else ok "lint skips an excluded file named on the command line"; fi

hook 1 "tiletrans found on PATH" PATH="$work/prefix/bin:$clean_path" pre-commit run --files bad.cu
says "hip-ballot-32bit" "the PATH copy ran"
hook 1 "nothing to run and building off" TILETRANS_HOOK_BUILD=0 PATH="$clean_path" pre-commit run --files bad.cu
says "Install one" "the hook says how to get tiletrans"

# First use without an install: the hook builds its pinned rev into pre-commit's cache.
hook 1 "builds tiletrans on first use" TILETRANS_NPM_TARBALLS="$npm" PATH="$clean_path" pre-commit run --files bad.cu
says "building tiletrans" "the hook said it builds"
says "hip-ballot-32bit" "the built copy ran"
built=$(ls -d "$PRE_COMMIT_HOME"/repo*/.tiletrans-hook/prefix/bin/tiletrans 2>/dev/null | head -1)
[ -n "$built" ] && ok "built into pre-commit's cache ($built)" || bad "no built tiletrans under $PRE_COMMIT_HOME"
hook 0 "the built copy is reused" PATH="$clean_path" pre-commit run --files ported.hip
if grep -q "building tiletrans" "$pc/out"; then bad "built a second time"; else ok "no second build"; fi

# The hook installed as git's pre-commit hook: commits go through it.
env PATH="$clean_path" pre-commit install >/dev/null && ok "pre-commit install"
if PATH="$clean_path" git commit -qm good >"$pc/out" 2>&1; then ok "commit of the port and the excluded file"; else bad "good commit refused"; cat "$pc/out"; fi
git add bad.cu
if PATH="$clean_path" git commit -qm bad >"$pc/out" 2>&1; then bad "commit with a 32-bit ballot went through"; else
  ok "commit with a 32-bit ballot refused"; says "hip-ballot-32bit" "the refusal names the finding"; fi
[ "$(git rev-list --count HEAD)" = 1 ] && ok "one commit in history" || bad "history: $(git rev-list --count HEAD) commits"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
