#!/bin/sh
# session-git-context: a Claude Code SessionStart hook (startup and resume).
#
# Tells the model where it is in git when a session starts: the branch, how
# many files have uncommitted changes, and the subjects of the last five
# commits. Plain stdout of a SessionStart hook becomes context for the
# model. Outside a git repository, or on a branch without commits, it says
# nothing. POSIX sh and git only, no network.

# The payload is not needed; read it so the agent's write never fails.
cat >/dev/null

dir=${CLAUDE_PROJECT_DIR:-$PWD}
git -C "$dir" rev-parse --verify -q HEAD >/dev/null 2>&1 || exit 0
branch=$(git -C "$dir" rev-parse --abbrev-ref HEAD 2>/dev/null) || exit 0
if [ "$branch" = HEAD ]; then
    branch="a detached HEAD at $(git -C "$dir" rev-parse --short HEAD)"
else
    branch="branch $branch"
fi
changed=$(git -C "$dir" status --porcelain 2>/dev/null | wc -l | tr -d ' ')
case $changed in
    0) changes="no uncommitted changes" ;;
    1) changes="1 file with uncommitted changes" ;;
    *) changes="$changed files with uncommitted changes" ;;
esac

printf 'Git (session-git-context hook): on %s; %s.\n' "$branch" "$changes"
printf 'Recent commits, newest first:\n'
git -C "$dir" log -5 --format='- %s' 2>/dev/null
exit 0
