#!/usr/bin/python3
"""Hand controllers in the virtual rig (issue 40), as uinput devices that announce
themselves as the real ones do to the kernel:

  - a Contour ShuttleXpress (USB 0b33:0020, "Contour Design ShuttleXpress"): the ring's
    position on REL_WHEEL (-7..7), the jog's 8-bit counter on REL_DIAL, five buttons
    BTN_4..BTN_8. Every frame carries the whole state as hid-generic sends it, with the
    input core's rule applied: relative events of value 0 are not sent;
  - a gamepad (an Xbox 360 pad's ids, 045e:028e): sticks on ABS_X/ABS_Y/ABS_RX/ABS_RY
    (-32768..32767), triggers on ABS_Z/ABS_RZ (0..255), BTN_SOUTH.. buttons;
  - a wheel mouse: REL_X/REL_Y, REL_WHEEL with REL_WHEEL_HI_RES (120 a detent), BTN_LEFT.

Commands, one per line on stdin (each answered "ok <command> @ <CLOCK_MONOTONIC>"):
  ring N            the shuttle's ring at position N (-7..7)
  jog D             the jog wheel turned D detents (negative: back)
  sbutton I 0|1     ShuttleXpress button I (1..5) released or pressed
  stick V           the gamepad's left stick up/down (ABS_Y; up is negative)
  pbutton NAME 0|1  a gamepad button: SOUTH, EAST, NORTH, WEST, TL, TR, START, SELECT
  wheel N           the mouse wheel N detents (positive: towards the user, "down")
  unplug shuttle|gamepad / plug shuttle|gamepad
  wait-device S     until udev made every node
  sleep MS / quit
"""
import fcntl
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig_uinput import (EV_KEY, EV_REL, EV_ABS, REL_X, REL_Y, BTN_LEFT, UI_SET_EVBIT, UI_SET_KEYBIT,  # noqa: E402
                        UI_SET_RELBIT, UI_SET_ABSBIT, UI_DEV_SETUP, UI_DEV_CREATE, UI_ABS_SETUP, UinputDevice,
                        ensure_evdev, monotonic, pause)

BUS_USB = 0x03
REL_DIAL, REL_WHEEL, REL_WHEEL_HI_RES = 0x07, 0x08, 0x0b
BTN_4 = 0x104
ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ = 0x00, 0x01, 0x02, 0x03, 0x04, 0x05
PAD_BUTTONS = {"SOUTH": 0x130, "EAST": 0x131, "NORTH": 0x133, "WEST": 0x134, "TL": 0x136, "TR": 0x137,
               "SELECT": 0x13a, "START": 0x13b}


class UsbDevice(UinputDevice):
    def __init__(self, name, vendor, product):
        super().__init__(name, product)
        self.vendor = vendor

    def create(self):
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("HHHH80sI", BUS_USB, self.vendor, self.product, 0x0110,
                                                       self.name.encode()[:79], 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)


class Shuttle(UsbDevice):
    def __init__(self):
        super().__init__("Contour Design ShuttleXpress", 0x0b33, 0x0020)
        self._set(UI_SET_EVBIT, EV_KEY)
        self._set(UI_SET_EVBIT, EV_REL)
        for code in (REL_DIAL, REL_WHEEL):
            self._set(UI_SET_RELBIT, code)
        for index in range(5):
            self._set(UI_SET_KEYBIT, BTN_4 + index)
        self.create()
        # The jog's counter is the device's own and survives replugs; a used one is
        # rarely at 0, where the kernel would also drop the ring's return to the
        # centre (both values 0: an empty report). See README, "Hand controllers".
        self.ring, self.counter = 0, 17

    def report(self, extra=()):
        """One HID report: the whole state, zeros left out as the input core does."""
        events = list(extra)
        if self.ring:
            events.append((EV_REL, REL_WHEEL, self.ring))
        if self.counter:
            events.append((EV_REL, REL_DIAL, self.counter))
        return self.emit(events) if events else monotonic()


class Gamepad(UsbDevice):
    def __init__(self):
        super().__init__("rig test gamepad", 0x045e, 0x028e)
        self._set(UI_SET_EVBIT, EV_KEY)
        self._set(UI_SET_EVBIT, EV_ABS)
        for code in PAD_BUTTONS.values():
            self._set(UI_SET_KEYBIT, code)
        axes = [(ABS_X, -32768, 32767, 16, 128), (ABS_Y, -32768, 32767, 16, 128), (ABS_RX, -32768, 32767, 16, 128),
                (ABS_RY, -32768, 32767, 16, 128), (ABS_Z, 0, 255, 0, 0), (ABS_RZ, 0, 255, 0, 0)]
        for code, low, high, fuzz, flat in axes:
            self._set(UI_SET_ABSBIT, code)
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("HHiiiiii", code, 0, 0, low, high, fuzz, flat, 0))
        self.create()


class WheelMouse(UinputDevice):
    def __init__(self):
        super().__init__("rig test wheel mouse", 0x0004)
        self._set(UI_SET_EVBIT, EV_KEY)
        self._set(UI_SET_EVBIT, EV_REL)
        self._set(UI_SET_KEYBIT, BTN_LEFT)
        for code in (REL_X, REL_Y, REL_WHEEL, REL_WHEEL_HI_RES):
            self._set(UI_SET_RELBIT, code)
        self.create()


def main():
    ensure_evdev()
    devices = {"shuttle": Shuttle(), "gamepad": Gamepad(), "mouse": WheelMouse()}
    print("ready " + " ".join(d.sysname() for d in devices.values()), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        try:
            shuttle = devices.get("shuttle")
            if command == "ring":
                shuttle.ring = max(-7, min(7, int(args[0])))
                stamp = shuttle.report()
            elif command == "jog":
                steps = int(args[0])
                for _ in range(abs(steps)):
                    shuttle.counter = (shuttle.counter + (1 if steps > 0 else -1)) & 0xff
                    stamp = shuttle.report()
                    pause(30)
            elif command == "sbutton":
                stamp = shuttle.report([(EV_KEY, BTN_4 + int(args[0]) - 1, int(args[1]))])
            elif command == "stick":
                stamp = devices["gamepad"].emit([(EV_ABS, ABS_Y, int(args[0]))])
            elif command == "pbutton":
                stamp = devices["gamepad"].emit([(EV_KEY, PAD_BUTTONS[args[0].upper()], int(args[1]))])
            elif command == "wheel":
                detents = int(args[0])
                # REL_WHEEL counts up for "away from the user": a wheel turned down is negative.
                stamp = devices["mouse"].emit([(EV_REL, REL_WHEEL, -detents), (EV_REL, REL_WHEEL_HI_RES, -120 * detents)])
            elif command == "unplug":
                devices.pop(args[0]).close()
                stamp = monotonic()
            elif command == "plug":
                devices[args[0]] = Shuttle() if args[0] == "shuttle" else Gamepad()
                stamp = monotonic()
            elif command == "wait-device":
                deadline = monotonic() + float(args[0] if args else 10)
                while monotonic() < deadline:
                    nodes = [n for d in devices.values() for n in d.event_nodes()]
                    if len(nodes) >= len(devices) and all(os.path.exists(n) for n in nodes):
                        break
                    pause(20)
                else:
                    raise TimeoutError("uinput nodes did not appear")
                stamp = monotonic()
            elif command == "sleep":
                pause(float(args[0]))
                stamp = monotonic()
            elif command == "quit":
                break
            else:
                raise ValueError(f"unknown command {command}")
            print(f"ok {line.strip()} @ {stamp:.6f}", flush=True)
        except (ValueError, OSError, TimeoutError, KeyError, AttributeError, IndexError) as error:
            print(f"error {line.strip()}: {error}", flush=True)
    for device in devices.values():
        device.close()


if __name__ == "__main__":
    main()
