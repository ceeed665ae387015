// libxkbcommon: the keyboard layout (rig.toml [keyboard]) turning evdev key codes into
// the characters they type and the keys they are (keysyms).
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-keysyms.h>
#include <xkbcommon/xkbcommon-names.h>
