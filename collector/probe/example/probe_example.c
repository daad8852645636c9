/*
 * How a verbs application reports its MR operations to rdmadiag. The verbs calls themselves
 * are left as comments so the example builds and runs anywhere; each probe call sits where the
 * application would make it.
 *
 *   probe_example [SOCKET]     (default: $RDMADIAG_PROBE_SOCKET or /run/rdmadiag/probe.sock)
 */
#include <stdio.h>

#include "rdmadiag_probe.h"

int main(int argc, char** argv) {
    int rc = rdmadiag_probe_init(argc > 1 ? argv[1] : NULL);
    if (rc != 0) {
        fprintf(stderr, "probe_example: no collector (%d); reports will be dropped\n", rc);
    }
    int dev = rdmadiag_probe_device("rxe0"); /* ibv_get_device_name(ctx->device) */

    /* mr = ibv_reg_mr(pd, buf, len, access); */
    uint32_t lkey = 0x1234, rkey = 0x1234;
    rdmadiag_probe_mr_reg(dev, lkey, rkey, 0);

    /* Ordinary traffic: every completion goes through rdmadiag_probe_wc(); the successful
     * ordinary ones return after one test. */
    for (int i = 0; i < 1000; ++i) {
        /* ibv_poll_cq(cq, 1, &wc) == 1 */
        rdmadiag_probe_wc(dev, RDMADIAG_OP_OTHER, 0 /* IBV_WC_SUCCESS */, lkey);
    }

    /* ibv_post_send(qp, &local_inv_wr, &bad) */
    rdmadiag_probe_post(dev, RDMADIAG_OP_LOCAL_INV, lkey);
    /* The QP went to error: the LOCAL_INV completes flushed. */
    rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5 /* IBV_WC_WR_FLUSH_ERR */, lkey);
    /* The next bind on this MR fails: the MR must be deregistered. */
    rdmadiag_probe_post(dev, RDMADIAG_OP_BIND_MW, lkey);
    rdmadiag_probe_wc(dev, RDMADIAG_OP_BIND_MW, 6 /* IBV_WC_MW_BIND_ERR */, lkey);

    /* ibv_dereg_mr(mr) */
    rdmadiag_probe_mr_dereg(dev, lkey, 0);

    printf("probe_example: reported; dropped %llu\n", (unsigned long long)rdmadiag_probe_dropped());
    rdmadiag_probe_shutdown();
    return 0;
}
