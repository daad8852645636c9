/*
 * The shared-memory ring and the socket messages between the probe and the collector. Both
 * sides include this; the collector trusts none of it (every field is checked after copying).
 */
#ifndef RDMADIAG_PROBE_LAYOUT_H
#define RDMADIAG_PROBE_LAYOUT_H

#include <stdint.h>
#include <string.h>

#define RDMADIAG_PROBE_MAGIC 0x52445052u /* "RDPR" */
#define RDMADIAG_PROBE_VERSION 1u

/* Record kinds. */
#define RDMADIAG_REC_REG 1u
#define RDMADIAG_REC_DEREG 2u
#define RDMADIAG_REC_POST 3u
#define RDMADIAG_REC_COMPLETION 4u

/* Timestamp clocks. */
#define RDMADIAG_CLOCK_TSC 1u       /* x86 time-stamp counter */
#define RDMADIAG_CLOCK_MONOTONIC 2u /* CLOCK_MONOTONIC nanoseconds */

#define RDMADIAG_MAX_DEVICES 16u
#define RDMADIAG_DEVICE_NAME_MAX 64u

/* One report: 32 bytes. `seq` is the low 32 bits of the record's ring position and `check`
 * mixes it with the payload, so a stale or scribbled slot is told from a real report. */
struct rdmadiag_probe_record {
    uint32_t seq;
    uint8_t kind;
    uint8_t op;
    uint8_t status;
    uint8_t device;
    uint32_t lkey;
    uint32_t rkey;
    int32_t rc;
    uint32_t check;
    uint64_t stamp;
};

/* The ring's first 192 bytes; records follow. head is written by the producer only, tail by the
 * collector only; each on its own cache line.
 *
 * `armed` is the doorbell's flag, on the collector's line: the collector sets it after it drained
 * the ring (it is going back to sleep until its slow timer), the producer clears it when it rings
 * the doorbell (a RDMADIAG_MSG_DOORBELL message on its socket). The producer rings only when it
 * finds the flag set, for a record that should not wait for the timer (a failed completion, a
 * failed registration or deregistration) or when its ring is half full: so at most once per
 * drain, and never while the collector has not asked for it (an older collector never sets it). */
struct rdmadiag_probe_ring_header {
    uint32_t magic;
    uint16_t version;
    uint16_t record_size;
    uint32_t capacity; /* records, a power of two */
    uint32_t clock;    /* RDMADIAG_CLOCK_* */
    uint32_t tid;
    uint32_t closed; /* set by the producer when its thread exits */
    uint64_t dropped;
    uint8_t pad0[32];
    uint64_t head;
    uint8_t pad1[56];
    uint64_t tail;
    uint32_t armed;
    uint8_t pad2[52];
};

#define RDMADIAG_RING_HEADER_SIZE 192u

/* Socket messages (SOCK_SEQPACKET, one per datagram), all from the probe to the collector. A
 * ring message carries its memfd with SCM_RIGHTS; a doorbell asks the collector to drain now. */
#define RDMADIAG_MSG_RING 1u
#define RDMADIAG_MSG_DEVICE 2u
#define RDMADIAG_MSG_DOORBELL 3u

struct rdmadiag_probe_msg {
    uint32_t magic;
    uint16_t version;
    uint16_t type;
    uint32_t arg; /* ring: size in bytes; device: index; doorbell: 0 */
    char name[RDMADIAG_DEVICE_NAME_MAX];
};

/* Written without casts so C and C++ (-Wold-style-cast) read it alike. */
static inline uint32_t rdmadiag_record_check(const struct rdmadiag_probe_record* r) {
    uint32_t kind = r->kind, op = r->op, status = r->status, device = r->device;
    uint32_t rc = 0;
    memcpy(&rc, &r->rc, sizeof rc);
    uint32_t payload = kind | (op << 8) | (status << 16) | (device << 24);
    return (r->seq * 0x9E3779B1u) ^ payload ^ r->lkey ^ (r->rkey * 31u) ^ rc;
}

#endif /* RDMADIAG_PROBE_LAYOUT_H */
