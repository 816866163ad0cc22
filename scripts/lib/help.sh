# Sourced by the project's scripts with their arguments, before anything else:
#   . "$(dirname "$0")/lib/help.sh" "$@"
# Defines `usage`, which prints the script's leading comment block (the lines
# after the #! line that start with #), and prints it and exits when the first
# argument is -h or --help.
usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}
case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
esac
