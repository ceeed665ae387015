// The part of pocketsphinx 5prealpha's C API the recogniser uses, declared here (the
// prototypes of pocketsphinx.h, cmd_ln.h and err.h, Debian 12's libpocketsphinx-dev)
// rather than included: its headers need pkg-config's -I/usr/include/x86_64-linux-gnu
// (and -I for sphinxbase's bare includes), flags SwiftPM hands on to every module that
// depends on Media; the kiosk's build then lost glibc's SOCK_DGRAM. Declaring the few
// functions keeps every other module's flags as they were.
// cmd_ln_init is variadic (Swift cannot call it); cmd_ln_parse_r with an argv is.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ps_decoder_s ps_decoder_t;
typedef struct ps_seg_s ps_seg_t;
typedef struct cmd_ln_s cmd_ln_t;
typedef struct arg_s arg_t;

arg_t const *ps_args(void);
cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout_cmdln, arg_t const *defn, int argc, char *argv[], int strict);
int cmd_ln_free_r(cmd_ln_t *cmdln);
void err_set_logfp(FILE *stream);

ps_decoder_t *ps_init(cmd_ln_t *config);
int ps_free(ps_decoder_t *ps);
int ps_start_utt(ps_decoder_t *ps);
int ps_process_raw(ps_decoder_t *ps, int16_t const *data, size_t n_samples, int no_search, int full_utt);
int ps_end_utt(ps_decoder_t *ps);
uint8_t ps_get_in_speech(ps_decoder_t *ps);
ps_seg_t *ps_seg_iter(ps_decoder_t *ps);
ps_seg_t *ps_seg_next(ps_seg_t *seg);
char const *ps_seg_word(ps_seg_t *seg);
void ps_seg_frames(ps_seg_t *seg, int *out_sf, int *out_ef);
