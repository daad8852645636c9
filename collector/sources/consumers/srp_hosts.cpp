#include "collector/sources/consumers/srp_hosts.hpp"

#include "collector/common/parse_number.hpp"
#include "collector/model/pkey.hpp"

namespace rdmadiag::consumers {

namespace {

std::string_view trimmed(const std::string& text) {
    std::string_view v = text;
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.remove_suffix(1);
    return v;
}

}  // namespace

bool is_srp_host(const SrpHostFiles& files) {
    return files.local_ib_device.has_value();
}

Result<Consumer> srp_consumer(const SrpHostFiles& files) {
    auto fail = [&](const std::string& what) { return make_error(files.host + ": " + what); };
    if (!files.local_ib_device || trimmed(*files.local_ib_device).empty())
        return fail("no local_ib_device");
    if (!files.local_ib_port) return fail("no local_ib_port");
    Consumer c;
    c.kind = ConsumerKind::srp;
    c.name = files.host;
    c.device = std::string(trimmed(*files.local_ib_device));
    auto port = common::parse_number<uint32_t>(trimmed(*files.local_ib_port));
    if (!port || *port == 0) return fail("local_ib_port is not a port number");
    c.port = *port;
    c.owner.name = "ib_srp";
    c.qp_type = "RC";
    if (files.pkey) {
        auto pkey = parse_pkey(trimmed(*files.pkey));
        if (!pkey) return fail("pkey: " + pkey.error().message);
        c.pkey = *pkey;
    }
    if (files.sgid) {
        auto gid = parse_gid(trimmed(*files.sgid));
        if (!gid) return fail("sgid: " + gid.error().message);
        c.gid = *gid;
    }
    if (files.dgid) {
        auto gid = parse_gid(trimmed(*files.dgid));
        if (!gid) return fail("dgid: " + gid.error().message);
        c.address = gid->to_string();
    }
    return c;
}

}  // namespace rdmadiag::consumers
