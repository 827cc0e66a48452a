# install_missing_debian_packages WHY PACKAGE…: apt-get installs the packages that are not
# installed yet (as root, else via sudo), saying why; does nothing when all are there.
install_missing_debian_packages() {
  local why=$1
  shift
  local missing=()
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "pagelevel setup: installing ${missing[*]} (for $why)" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
