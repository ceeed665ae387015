// libqrencode (Debian's 4.1): the pairing address as a QR code on the console.
#include <qrencode.h>
