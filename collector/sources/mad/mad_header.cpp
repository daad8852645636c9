#include "collector/sources/mad/mad_header.hpp"

#include <algorithm>
#include <cstdio>

namespace rdmadiag::mad {

namespace {

void put_common(MutableBytes b, MgmtClass cls, uint8_t class_version, Method method, uint64_t tid,
                uint16_t attr_id, uint32_t attr_mod) {
    put8(b, 0, 1);  // BaseVersion
    put8(b, 1, static_cast<uint8_t>(cls));
    put8(b, 2, class_version);
    put8(b, 3, static_cast<uint8_t>(method));
    put64(b, 8, tid);
    put16(b, 16, attr_id);
    put32(b, 20, attr_mod);
}

bool is_response_method(uint8_t method) {
    return (method & 0x80) != 0;
}

}  // namespace

std::array<uint8_t, kMadSize> build_lid_smp(const SmpRequest& req, uint64_t tid) {
    std::array<uint8_t, kMadSize> mad{};
    put_common(mad, MgmtClass::smi_lid, 1, req.method, tid, req.attr_id, req.attr_mod);
    put64(mad, 24, req.m_key);
    return mad;
}

Result<std::array<uint8_t, kMadSize>> build_dr_smp(const SmpRequest& req, const DrPath& path,
                                                   uint64_t tid) {
    if (path.size() > kDrMaxHops) {
        return make_error("directed route of " + std::to_string(path.size()) +
                          " hops is longer than 63");
    }
    std::array<uint8_t, kMadSize> mad{};
    put_common(mad, MgmtClass::smi_dr, 1, req.method, tid, req.attr_id, req.attr_mod);
    put8(mad, 6, 0);  // hop pointer
    put8(mad, 7, static_cast<uint8_t>(path.size()));
    put64(mad, 24, req.m_key);
    put16(mad, 32, 0xffff);  // DrSLID: permissive, the whole route is directed
    put16(mad, 34, 0xffff);  // DrDLID
    // InitialPath[0] is unused; hop i leaves through InitialPath[i].
    for (size_t i = 0; i < path.size(); ++i) mad[128 + 1 + i] = path[i];
    return mad;
}

std::array<uint8_t, kMadSize> build_pma_get(uint16_t attr_id, uint32_t attr_mod, Bytes data,
                                            uint64_t tid) {
    std::array<uint8_t, kMadSize> mad{};
    put_common(mad, MgmtClass::pma, 1, Method::get, tid, attr_id, attr_mod);
    std::copy_n(data.begin(), std::min(data.size(), kMadSize - kGmpDataOffset),
                mad.begin() + kGmpDataOffset);
    return mad;
}

std::array<uint8_t, kMadSize> build_sa_query(Method method, uint16_t attr_id, uint64_t comp_mask,
                                             Bytes record_template, uint64_t sm_key, uint64_t tid) {
    std::array<uint8_t, kMadSize> mad{};
    put_common(mad, MgmtClass::sa, 2, method, tid, attr_id, 0);
    put8(mad, 24, 1);  // RMPPVersion: the response may come in segments
    put64(mad, 36, sm_key);
    put64(mad, 48, comp_mask);
    std::copy_n(record_template.begin(), std::min(record_template.size(), kMadSize - kSaHeaderEnd),
                mad.begin() + kSaHeaderEnd);
    return mad;
}

Result<void> need_bytes(Bytes data, size_t size, std::string_view what) {
    if (data.size() < size) {
        return make_error(std::string(what) + " needs " + std::to_string(size) + " bytes, got " +
                          std::to_string(data.size()));
    }
    return {};
}

Result<MadHeader> parse_header(Bytes mad) {
    if (mad.size() < 24) {
        return make_error("MAD of " + std::to_string(mad.size()) +
                          " bytes is shorter than its header");
    }
    MadHeader h;
    h.base_version = get8(mad, 0);
    h.mgmt_class = get8(mad, 1);
    h.class_version = get8(mad, 2);
    h.method = get8(mad, 3);
    uint16_t status = get16(mad, 4);
    if (h.mgmt_class == static_cast<uint8_t>(MgmtClass::smi_dr)) {
        h.direction = (status & 0x8000) != 0;
        h.status = status & 0x7fff;
        h.hop_pointer = get8(mad, 6);
        h.hop_count = get8(mad, 7);
    } else {
        h.status = status;
    }
    h.tid = get64(mad, 8);
    h.attr_id = get16(mad, 16);
    h.attr_mod = get32(mad, 20);
    return h;
}

std::string describe_status(uint16_t status) {
    std::string text;
    auto add = [&text](std::string_view part) {
        if (!text.empty()) text += ", ";
        text += part;
    };
    if (status & 0x0001) add("busy");
    if (status & 0x0002) add("redirect required");
    switch ((status >> 2) & 0x7) {
        case 0:
            break;
        case 1:
            add("bad base/class version");
            break;
        case 2:
            add("method not supported");
            break;
        case 3:
            add("method/attribute combination not supported");
            break;
        case 7:
            add("invalid attribute or modifier value");
            break;
        default:
            add("reserved invalid-field code " + std::to_string((status >> 2) & 0x7));
            break;
    }
    if (uint16_t cls = status >> 8; cls != 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "class status 0x%02x", cls);
        add(buf);
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, " (0x%04x)", status);
    return (text.empty() ? std::string("ok") : text) + buf;
}

Result<MadHeader> check_response(Bytes mad) {
    auto header = RDMADIAG_TRY(parse_header(mad));
    const MadHeader& h = header;
    if (h.base_version != 1) {
        return make_error("MAD base version " + std::to_string(h.base_version) + " is not 1");
    }
    if (!is_response_method(h.method)) {
        return make_error("MAD method " + std::to_string(h.method) + " is not a response");
    }
    if (h.status != 0) return make_error("MAD answered with status " + describe_status(h.status));
    return header;
}

Result<Bytes> smp_data(Bytes mad) {
    if (mad.size() < kSmpDataOffset + kSmpDataSize) {
        return make_error("SMP of " + std::to_string(mad.size()) +
                          " bytes is too short for its data");
    }
    return mad.subspan(kSmpDataOffset, kSmpDataSize);
}

Result<Bytes> pma_data(Bytes mad) {
    if (mad.size() < kMadSize) {
        return make_error("PMA MAD of " + std::to_string(mad.size()) +
                          " bytes is shorter than 256");
    }
    return mad.subspan(kGmpDataOffset, kMadSize - kGmpDataOffset);
}

Result<std::vector<Bytes>> sa_records(Bytes mad, size_t min_size) {
    if (mad.size() < kSaHeaderEnd) {
        return make_error("SA MAD of " + std::to_string(mad.size()) +
                          " bytes is shorter than its headers");
    }
    // RMPP DATA segment flagged First but not Last in a single MAD: the other segments never
    // came (the kernel reassembles them into one longer buffer). Reading on would silently
    // return part of the table.
    uint8_t rmpp_type = get8(mad, 25);
    uint8_t rmpp_flags = get8(mad, 26) & 0x7;
    if (rmpp_type == 1 && (rmpp_flags & 0x2) && !(rmpp_flags & 0x4) && mad.size() <= kMadSize) {
        return make_error(
            "SA answer is the first of several RMPP segments and the rest did not "
            "arrive (no RMPP reassembly on this path)");
    }
    size_t spacing = size_t{get16(mad, 44)} * 8;
    std::vector<Bytes> records;
    if (spacing == 0) return records;  // no records at all
    if (spacing < min_size) {
        return make_error("SA record spacing " + std::to_string(spacing) + " is below the " +
                          std::to_string(min_size) + " bytes of the record");
    }
    Bytes data = mad.subspan(kSaHeaderEnd);
    size_t off = 0;
    for (; off + spacing <= data.size(); off += spacing)
        records.push_back(data.subspan(off, spacing));
    // Bytes after the last whole record are padding, zero. Anything else is the start of a record
    // that was cut off: a multi-segment answer whose other segments were lost on the way.
    for (size_t i = off; i < data.size(); ++i) {
        if (data[i] != 0) {
            return make_error("SA answer holds a partial record after " +
                              std::to_string(records.size()) +
                              " whole ones: it was cut short (RMPP segments missing)");
        }
    }
    return records;
}

}  // namespace rdmadiag::mad
