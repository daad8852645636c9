/*
 * rdmadiag probe: lets a verbs application report its MR operations to the rdmadiag collector.
 *
 * Link with -lrdmadiag_probe. Call rdmadiag_probe_init() once; then report registrations,
 * MR work requests (FASTREG/REG_MR, LOCAL_INV, BIND_MW, SEND_WITH_INV), their completions and
 * deregistrations. Reports go into a per-thread ring in shared memory that the collector drains:
 * no system call and no lock per report. A successful completion of an ordinary work request
 * (SEND, RDMA WRITE, ...) costs one branch: pass every completion to rdmadiag_probe_wc().
 *
 * When it drains: the collector sleeps, and reads the rings once a second on its own timer. A
 * report that should not wait that long (a failed completion such as a flushed LOCAL_INV or a
 * MW_BIND_ERR, a failed registration or deregistration), or a ring that is half full, rings its
 * doorbell: one message on the probe's socket, sent only when the collector armed the ring after
 * its last drain, so at most once per drain and per thread. Every other report, successful MR
 * work included, costs no system call; it reaches the collector within the second.
 *
 * If the collector is not running every call is a cheap no-op; the application never blocks
 * and never fails because of the probe.
 */
#ifndef RDMADIAG_PROBE_H
#define RDMADIAG_PROBE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDMADIAG_PROBE_API __attribute__((visibility("default")))

/* Where the collector listens unless told otherwise (also RDMADIAG_PROBE_SOCKET in the
 * environment). */
#define RDMADIAG_PROBE_DEFAULT_SOCKET "/run/rdmadiag/probe.sock"

/* MR operations as the probe names them. RDMADIAG_OP_OTHER is every work request that does not
 * touch an MR's state (SEND, RECV, RDMA READ/WRITE, atomics). */
enum rdmadiag_op {
    RDMADIAG_OP_OTHER = 0,
    RDMADIAG_OP_FASTREG = 1, /* IB_WR_REG_MR / fast registration */
    RDMADIAG_OP_LOCAL_INV = 2,
    RDMADIAG_OP_BIND_MW = 3,
    RDMADIAG_OP_SEND_WITH_INV = 4
};

/* Connects to the collector at `socket_path` (NULL: $RDMADIAG_PROBE_SOCKET, else the default).
 * Returns 0, or a negative errno when no collector is there (reports are then dropped). */
RDMADIAG_PROBE_API int rdmadiag_probe_init(const char* socket_path);
/* Disconnects; later reports are dropped until the next init. */
RDMADIAG_PROBE_API void rdmadiag_probe_shutdown(void);

/* Names a device for later reports; returns its index (0..15) or -1. Idempotent per name. */
RDMADIAG_PROBE_API int rdmadiag_probe_device(const char* name);

/* Lifecycle. `rc` is what ibv_reg_mr / ibv_dereg_mr returned (0 on success, else errno). */
RDMADIAG_PROBE_API void rdmadiag_probe_mr_reg(int device, uint32_t lkey, uint32_t rkey, int rc);
RDMADIAG_PROBE_API void rdmadiag_probe_mr_dereg(int device, uint32_t lkey, int rc);

/* A work request on the MR named by `lkey` was posted. */
RDMADIAG_PROBE_API void rdmadiag_probe_post(int device, enum rdmadiag_op op, uint32_t lkey);

/* Out-of-line part of rdmadiag_probe_wc(); call that instead. */
RDMADIAG_PROBE_API void rdmadiag_probe_report_wc(int device, enum rdmadiag_op op, uint32_t status,
                                                 uint32_t lkey);

/* Every completion may be passed here: `status` is ibv_wc.status, `op` what the work request
 * did to the MR named by `lkey`. Successful ordinary completions return after one test. */
static inline void rdmadiag_probe_wc(int device, enum rdmadiag_op op, uint32_t status,
                                     uint32_t lkey) {
    uint32_t o = op;
    if (__builtin_expect((status | o) == 0, 1)) return;
    rdmadiag_probe_report_wc(device, op, status, lkey);
}

/* Reports dropped because this thread's ring was full or no collector was connected. */
RDMADIAG_PROBE_API uint64_t rdmadiag_probe_dropped(void);

#ifdef __cplusplus
}
#endif

#endif /* RDMADIAG_PROBE_H */
