#!/usr/bin/python3
"""Virtual input devices for the virtual rig: a uinput touchscreen (INPUT_PROP_DIRECT,
multitouch type B) and a uinput keyboard, and a small player of gestures and keys.

Python 3 stdlib only (fcntl ioctls), so it runs in the guest straight from the host's
root filesystem. Commands come from the command line (`--play "tap 960 540; sleep 400"`)
or one per line on stdin; every command prints one line "ok <command> @ <times>" where the
times are CLOCK_MONOTONIC seconds taken right before the kernel saw the events, so a
test can check that the kiosk used the event's own timestamp.

Commands (touch coordinates are in sensor units, 0..width-1 / 0..height-1):
  tap X Y [HOLD_MS]                 one finger down, up after HOLD_MS (default 60)
  hold X Y MS                       a long press
  swipe X1 Y1 X2 Y2 MS [STEPS]      one finger moving from 1 to 2 in MS
  twofinger X Y X2 Y2 [HOLD_MS]     two fingers down together, then up
  palm X Y [FINGERS]                several contacts at once (default 5)
  itap X Y [HOLD_MS]                a tap on the inner touchscreen (--inner-touch-name)
  mouse DX DY / click               relative motion / a left click (--mouse-name)
  key NAME[+NAME...] [HOLD_MS]      press and release (NAME: evdev name without KEY_, e.g. SPACE, UP);
                                    a chord such as LEFTSHIFT+H presses in order, releases in reverse
  sleep MS
  quit                              remove the devices and exit
  wait-device SECONDS               wait until udev has made the nodes (/dev/input/eventN)
"""
import argparse
import ctypes
import fcntl
import os
import struct
import subprocess
import sys
import time

# linux/input-event-codes.h
EV_SYN, EV_KEY, EV_REL, EV_ABS = 0x00, 0x01, 0x02, 0x03
REL_X, REL_Y = 0x00, 0x01
BTN_LEFT = 0x110
SYN_REPORT = 0
BTN_TOUCH = 0x14A
BTN_TOOL_FINGER = 0x145
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR = 0x2F, 0x30
ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 0x01
BUS_VIRTUAL = 0x06

KEYS = {
    "ESC": 1, "1": 2, "2": 3, "3": 4, "4": 5, "5": 6, "6": 7, "7": 8, "8": 9, "9": 10, "0": 11,
    "MINUS": 12, "EQUAL": 13, "BACKSPACE": 14, "TAB": 15,
    "Q": 16, "W": 17, "E": 18, "R": 19, "T": 20, "Y": 21, "U": 22, "I": 23, "O": 24, "P": 25,
    "ENTER": 28, "A": 30, "S": 31, "D": 32, "F": 33, "G": 34, "H": 35, "J": 36, "K": 37, "L": 38,
    "Z": 44, "X": 45, "C": 46, "V": 47, "B": 48, "N": 49, "M": 50, "COMMA": 51, "DOT": 52,
    "SLASH": 53, "SPACE": 57, "KPMINUS": 74, "KPPLUS": 78,
    "F1": 59, "F2": 60, "F3": 61, "F4": 62, "F5": 63,
    "HOME": 102, "UP": 103, "PAGEUP": 104, "LEFT": 105, "RIGHT": 106, "END": 107,
    "DOWN": 108, "PAGEDOWN": 109, "PLAYPAUSE": 164,
    "LEFTCTRL": 29, "LEFTSHIFT": 42, "RIGHTSHIFT": 54, "LEFTALT": 56, "CAPSLOCK": 58, "RIGHTALT": 100,
}


def _ioc(direction, kind, number, size):
    return (direction << 30) | (size << 16) | (ord(kind) << 8) | number


UI_DEV_CREATE = _ioc(0, "U", 1, 0)
UI_DEV_DESTROY = _ioc(0, "U", 2, 0)
UI_DEV_SETUP = _ioc(1, "U", 3, 92)       # struct uinput_setup
UI_ABS_SETUP = _ioc(1, "U", 4, 28)       # struct uinput_abs_setup
UI_SET_EVBIT = _ioc(1, "U", 100, 4)
UI_SET_KEYBIT = _ioc(1, "U", 101, 4)
UI_SET_RELBIT = _ioc(1, "U", 102, 4)
UI_SET_ABSBIT = _ioc(1, "U", 103, 4)
UI_SET_PROPBIT = _ioc(1, "U", 110, 4)
UI_GET_SYSNAME_64 = _ioc(2, "U", 44, 64)


def ensure_evdev():
    """libinput reads /dev/input/eventN nodes, which the evdev driver makes. Debian builds
    it as a module and the virtual rig's initramfs does not load it, so load it here:
    from the guest's module tree if there is one, else from the vrig kernel cache."""
    if os.path.exists("/sys/module/evdev"):
        return
    if subprocess.run(["modprobe", "evdev"], capture_output=True).returncode == 0:
        return
    release = os.uname().release
    tree = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "cache", "kernel", "lib", "modules", release)
    for directory, _, files in os.walk(tree):
        for name in files:
            if name.startswith("evdev.ko"):
                subprocess.run(["insmod", os.path.join(directory, name)], check=True)
                return
    raise OSError(f"no evdev module for kernel {release}: /dev/input/eventN nodes will not exist")


def monotonic():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class UinputDevice:
    def __init__(self, name, product):
        self.name = name
        self.product = product
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)

    def _set(self, request, value):
        fcntl.ioctl(self.fd, request, value)

    def create(self):
        setup = struct.pack("HHHH80sI", BUS_VIRTUAL, 0x1209, self.product, 1,
                            self.name.encode()[:79], 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)

    def sysname(self):
        buffer = bytearray(64)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME_64, buffer)
        return buffer.split(b"\0", 1)[0].decode()

    def event_nodes(self):
        base = f"/sys/class/input/{self.sysname()}"
        try:
            return [f"/dev/input/{entry}" for entry in os.listdir(base) if entry.startswith("event")]
        except FileNotFoundError:
            return []

    def emit(self, events):
        """Writes events and a SYN_REPORT; returns the monotonic time just before."""
        payload = b"".join(struct.pack("llHHi", 0, 0, kind, code, value) for kind, code, value in events)
        payload += struct.pack("llHHi", 0, 0, EV_SYN, SYN_REPORT, 0)
        stamp = monotonic()
        os.write(self.fd, payload)
        return stamp

    def close(self):
        try:
            fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        finally:
            os.close(self.fd)


class Touchscreen(UinputDevice):
    SLOTS = 10

    def __init__(self, name="rig outer touch", width=1920, height=1080):
        super().__init__(name, 0x0001)
        self.width, self.height = width, height
        self.next_id = 1
        self._set(UI_SET_EVBIT, EV_KEY)
        self._set(UI_SET_EVBIT, EV_ABS)
        self._set(UI_SET_KEYBIT, BTN_TOUCH)
        self._set(UI_SET_PROPBIT, INPUT_PROP_DIRECT)
        # resolution in units/mm: a 1920-unit wide sensor of about 477 mm (a 21.5" panel)
        axes = [(ABS_X, width - 1, 4), (ABS_Y, height - 1, 4),
                (ABS_MT_SLOT, self.SLOTS - 1, 0), (ABS_MT_TRACKING_ID, 65535, 0),
                (ABS_MT_POSITION_X, width - 1, 4), (ABS_MT_POSITION_Y, height - 1, 4)]
        for code, maximum, resolution in axes:
            self._set(UI_SET_ABSBIT, code)
            # struct uinput_abs_setup: code, pad, absinfo {value, min, max, fuzz, flat, resolution}
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("HHiiiiii", code, 0, 0, 0, maximum, 0, 0, resolution))
        self.create()

    def down(self, contacts):
        """contacts: list of (slot, x, y). Returns the event time."""
        events = []
        for slot, x, y in contacts:
            events += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, self.next_id),
                       (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]
            self.next_id += 1
        first = contacts[0]
        events += [(EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, first[1]), (EV_ABS, ABS_Y, first[2])]
        return self.emit(events)

    def move(self, slot, x, y):
        return self.emit([(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_POSITION_X, x),
                          (EV_ABS, ABS_MT_POSITION_Y, y), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y)])

    def up(self, slots):
        events = []
        for slot in slots:
            events += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, -1)]
        events.append((EV_KEY, BTN_TOUCH, 0))
        return self.emit(events)


class Keyboard(UinputDevice):
    def __init__(self, name="rig operator keyboard"):
        super().__init__(name, 0x0002)
        self._set(UI_SET_EVBIT, EV_KEY)
        for code in sorted(set(KEYS.values())):
            self._set(UI_SET_KEYBIT, code)
        self.create()

    def press(self, code, down):
        return self.emit([(EV_KEY, code, 1 if down else 0)])


class Mouse(UinputDevice):
    def __init__(self, name="rig operator mouse"):
        super().__init__(name, 0x0003)
        self._set(UI_SET_EVBIT, EV_KEY)
        self._set(UI_SET_EVBIT, EV_REL)
        self._set(UI_SET_KEYBIT, BTN_LEFT)
        self._set(UI_SET_RELBIT, REL_X)
        self._set(UI_SET_RELBIT, REL_Y)
        self.create()

    def move(self, dx, dy):
        return self.emit([(EV_REL, REL_X, dx), (EV_REL, REL_Y, dy)])

    def button(self, down):
        return self.emit([(EV_KEY, BTN_LEFT, 1 if down else 0)])


def pause(milliseconds):
    deadline = monotonic() + milliseconds / 1000
    while (left := deadline - monotonic()) > 0:
        time.sleep(left)


class Player:
    def __init__(self, touch, keyboard, inner_touch=None, mouse=None):
        self.touch, self.keyboard = touch, keyboard
        self.inner_touch, self.mouse = inner_touch, mouse

    def run(self, line):
        words = line.split()
        if not words or words[0].startswith("#"):
            return None
        command, numbers = words[0], words[1:]
        ints = lambda: [int(float(w)) for w in numbers]
        if command == "tap":
            x, y, *rest = ints()
            down = self.touch.down([(0, x, y)])
            pause(rest[0] if rest else 60)
            return [down, self.touch.up([0])]
        if command == "hold":
            x, y, ms = ints()
            down = self.touch.down([(0, x, y)])
            pause(ms)
            return [down, self.touch.up([0])]
        if command == "swipe":
            x1, y1, x2, y2, ms, *rest = ints()
            steps = rest[0] if rest else 10
            down = self.touch.down([(0, x1, y1)])
            for step in range(1, steps + 1):
                pause(ms / steps)
                self.touch.move(0, x1 + (x2 - x1) * step // steps, y1 + (y2 - y1) * step // steps)
            return [down, self.touch.up([0])]
        if command == "twofinger":
            x, y, x2, y2, *rest = ints()
            down = self.touch.down([(0, x, y), (1, x2, y2)])
            pause(rest[0] if rest else 60)
            return [down, self.touch.up([0, 1])]
        if command == "palm":
            x, y, *rest = ints()
            fingers = rest[0] if rest else 5
            down = self.touch.down([(slot, x + 25 * slot, y + 15 * (slot % 2)) for slot in range(fingers)])
            pause(80)
            return [down, self.touch.up(list(range(fingers)))]
        if command == "key":
            codes = [KEYS.get(name.removeprefix("KEY_")) for name in numbers[0].upper().split("+")]
            if None in codes:
                raise ValueError(f"unknown key in {numbers[0]}")
            hold = int(numbers[1]) if len(numbers) > 1 else 40
            down = [self.keyboard.press(code, True) for code in codes][0]
            pause(hold)
            return [down] + [self.keyboard.press(code, False) for code in reversed(codes)][-1:]
        if command == "itap":
            x, y, *rest = ints()
            down = self.inner_touch.down([(0, x, y)])
            pause(rest[0] if rest else 60)
            return [down, self.inner_touch.up([0])]
        if command == "mouse":
            dx, dy = ints()
            return [self.mouse.move(dx, dy)]
        if command == "click":
            down = self.mouse.button(True)
            pause(40)
            return [down, self.mouse.button(False)]
        if command == "quit":
            return "quit"
        if command == "sleep":
            pause(float(numbers[0]))
            return []
        if command == "wait-device":
            deadline = monotonic() + float(numbers[0] if numbers else 10)
            devices = [d for d in (self.touch, self.keyboard, self.inner_touch, self.mouse) if d]
            while monotonic() < deadline:
                nodes = [n for d in devices for n in d.event_nodes()]
                if len(nodes) >= len(devices) and all(os.path.exists(n) for n in nodes):
                    return nodes
                pause(20)
            raise TimeoutError("uinput nodes did not appear")
        raise ValueError(f"unknown command {command}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--touch-name", default="rig outer touch")
    parser.add_argument("--keyboard-name", default="rig operator keyboard")
    parser.add_argument("--width", type=int, default=1920)
    parser.add_argument("--height", type=int, default=1080)
    parser.add_argument("--inner-touch-name", help="also make a second touchscreen (the inner one)")
    parser.add_argument("--mouse-name", help="also make a relative mouse")
    parser.add_argument("--no-touch", action="store_true")
    parser.add_argument("--no-keyboard", action="store_true")
    parser.add_argument("--play", help="commands separated by ';' (otherwise read stdin)")
    parser.add_argument("--linger", type=float, default=0.5,
                        help="seconds to keep the devices after the last command")
    args = parser.parse_args()
    ensure_evdev()
    touch = None if args.no_touch else Touchscreen(args.touch_name, args.width, args.height)
    keyboard = None if args.no_keyboard else Keyboard(args.keyboard_name)
    inner_touch = Touchscreen(args.inner_touch_name, args.width, args.height) if args.inner_touch_name else None
    mouse = Mouse(args.mouse_name) if args.mouse_name else None
    player = Player(touch, keyboard, inner_touch, mouse)
    devices = [d for d in (touch, keyboard, inner_touch, mouse) if d]
    names = [d.sysname() for d in devices]
    print("ready " + " ".join(names), flush=True)
    lines = args.play.split(";") if args.play else sys.stdin
    status = 0
    try:
        for line in lines:
            try:
                result = player.run(line.strip())
            except (ValueError, OSError, TimeoutError) as error:
                print(f"error {line.strip()}: {error}", flush=True)
                status = 1
                continue
            if result == "quit":
                break
            if result is not None:
                print("ok " + line.strip() + " @ " + " ".join(str(r) for r in result), flush=True)
        time.sleep(args.linger)
    finally:
        for device in devices:
            device.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
