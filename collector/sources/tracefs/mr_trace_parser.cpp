#include "collector/sources/tracefs/mr_trace_parser.hpp"

#include <array>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::tracefs {

namespace {

// A strict left-to-right reader: every expected literal and number must be there.
class Cursor {
public:
    explicit Cursor(std::string_view s) : s_(s) {}

    bool lit(std::string_view l) {
        if (s_.substr(0, l.size()) != l) return false;
        s_.remove_prefix(l.size());
        return true;
    }
    template <class T>
    bool num(T& out, int base = 10) {
        const auto v = common::take_number<T>(s_, base);
        if (!v) return false;
        out = *v;
        return true;
    }
    template <class T>
    bool hex(T& out) {
        return lit("0x") && num(out, 16);
    }
    // Up to (not including) the first of `stops`.
    std::string_view until(char stop) {
        size_t n = s_.find(stop);
        if (n == std::string_view::npos) n = s_.size();
        std::string_view w = s_.substr(0, n);
        s_.remove_prefix(n);
        return w;
    }
    bool done() const { return s_.empty(); }
    std::string_view rest() const { return s_; }

private:
    std::string_view s_;
};

enum class Kind : uint8_t {
    fastreg,
    local_inv,
    frwr_done,
    frwr_alloc,
    frwr_dereg,
    core_alloc,
    core_integ_alloc,
    core_dereg,
    core_reg
};

struct Known {
    std::string_view name;
    Kind kind;
};

constexpr std::array<Known, 11> kKnown{{
    {"xprtrdma_wc_fastreg", Kind::fastreg},
    {"xprtrdma_wc_li", Kind::local_inv},
    {"xprtrdma_wc_li_wake", Kind::local_inv},
    {"xprtrdma_wc_li_done", Kind::local_inv},
    {"xprtrdma_frwr_done", Kind::frwr_done},
    {"xprtrdma_frwr_alloc", Kind::frwr_alloc},
    {"xprtrdma_frwr_dereg", Kind::frwr_dereg},
    {"mr_alloc", Kind::core_alloc},
    {"mr_integ_alloc", Kind::core_integ_alloc},
    {"mr_dereg", Kind::core_dereg},
    {"mr_reg", Kind::core_reg},
}};

const Known* known_of(std::string_view event) {
    // Cheap reject: every name starts with "xprtrdma_" or "mr_".
    if (event.size() < 6 || (event[0] != 'x' && event[0] != 'm')) return nullptr;
    for (const auto& k : kKnown) {
        if (k.name == event) return &k;
    }
    return nullptr;
}

std::optional<Kind> kind_of(std::string_view event) {
    const Known* k = known_of(event);
    return k ? std::optional<Kind>(k->kind) : std::nullopt;
}

Error bad(std::string_view event, std::string_view what) {
    return make_error(std::string(event) + ": " + std::string(what));
}

// "%s (%lu/0x%x)": name, numeric code and vendor error. The name and the code must agree; a
// status the kernel has no name for prints as a number, which the code settles.
Result<WcStatus> status_tail(Cursor& c, std::string_view event) {
    std::string_view name = c.until(' ');
    unsigned long code = 0;
    unsigned vendor = 0;
    if (!c.lit(" (") || !c.num(code) || !c.lit("/") || !c.hex(vendor) || !c.lit(")")) {
        return bad(event, "truncated status");
    }
    if (!c.done()) return bad(event, "trailing text after status");
    auto by_code = code <= 0xff ? wc_status_from_code(static_cast<unsigned>(code)) : std::nullopt;
    if (!by_code) return bad(event, "unknown completion status code " + std::to_string(code));
    auto by_name = parse_wc_status(name);
    if (by_name && *by_name != *by_code) return bad(event, "status name and code disagree");
    if (!by_name && (name.empty() || name.substr(0, 2) != "0x")) {
        return bad(event, "unknown completion status " + std::string(name));
    }
    return *by_code;
}

bool rc_tail(Cursor& c, int& rc) {
    return c.lit("rc=") && c.num(rc) && c.done();
}

}  // namespace

bool is_mr_trace_event(std::string_view event) {
    return kind_of(event).has_value();
}

Result<MrEvent> parse_mr_trace_body(std::string_view event, std::string_view body,
                                    std::string_view device) {
    auto kind = kind_of(event);
    if (!kind) return bad(event, "not an MR trace event");
    MrEvent ev;
    ev.device = std::string(device);
    ev.owner.name = event[0] == 'x' ? "xprtrdma" : "kernel";
    Cursor c(body);
    if (c.lit("mr=")) return bad(event, "names the MR by address (kernel older than 5.10), not id");

    switch (*kind) {
        case Kind::fastreg:
        case Kind::local_inv:
        case Kind::frwr_done: {
            ev.op = *kind == Kind::fastreg ? MrOp::fastreg : MrOp::local_inv;
            if (c.lit("cq.id=")) {  // current generation
                uint32_t cq = 0;
                int64_t id = 0;
                if (!c.num(cq) || !c.lit(" mr.id=") || !c.num(id) || !c.lit(" status=")) {
                    return bad(event, "truncated completion");
                }
                if (id < 0) return bad(event, "negative mr.id");
                ev.mr = static_cast<uint64_t>(id);
            } else {  // ~5.10: "mr.id=%u: %s (%u/0x%x)"
                uint32_t id = 0;
                if (!c.lit("mr.id=") || !c.num(id) || !c.lit(": ")) {
                    return bad(event, "truncated completion");
                }
                ev.mr = id;
            }
            ev.status = RDMADIAG_TRY(status_tail(c, event));
            return ev;
        }
        case Kind::frwr_alloc: {
            uint32_t id = 0;
            int rc = 0;
            if (!c.lit("mr.id=") || !c.num(id) || !c.lit(": ") || !rc_tail(c, rc)) {
                return bad(event, "truncated allocation");
            }
            ev.op = MrOp::alloc;
            ev.mr = id;
            ev.rc = rc;
            return ev;
        }
        case Kind::frwr_dereg: {
            uint32_t id = 0, length = 0, handle = 0;
            int nents = 0, rc = 0;
            uint64_t offset = 0;
            if (!c.lit("mr.id=") || !c.num(id) || !c.lit(" nents=") || !c.num(nents) ||
                !c.lit(" ") || !c.num(length) || !c.lit("@") || !c.hex(offset) || !c.lit(":") ||
                !c.hex(handle) || !c.lit(" (")) {
                return bad(event, "truncated deregistration");
            }
            std::string_view dir = c.until(')');
            if (dir.empty() || !c.lit("): ") || !rc_tail(c, rc)) {
                return bad(event, "truncated deregistration");
            }
            ev.op = MrOp::dereg;
            ev.mr = id;
            ev.key = handle;
            ev.rc = rc;
            return ev;
        }
        case Kind::core_alloc:
        case Kind::core_integ_alloc: {
            uint32_t pd = 0, id = 0;
            int rc = 0;
            if (!c.lit("pd.id=") || !c.num(pd) || !c.lit(" mr.id=") || !c.num(id) || !c.lit(" ")) {
                return bad(event, "truncated allocation");
            }
            // The middle fields (type, SG limits) differ between the two events; rc ends both.
            std::string_view rest = c.rest();
            size_t at = rest.rfind(" rc=");
            if (at == std::string_view::npos) return bad(event, "truncated allocation");
            Cursor tail(rest.substr(at + 1));
            if (!rc_tail(tail, rc)) return bad(event, "truncated allocation");
            ev.op = MrOp::alloc;
            ev.mr = id;
            ev.rc = rc;
            return ev;
        }
        case Kind::core_dereg:
        case Kind::core_reg: {
            uint32_t id = 0;
            if (!c.lit("mr.id=") || !c.num(id)) return bad(event, "truncated MR event");
            int rc = 0;
            if (!c.done() && !(c.lit(" ") && rc_tail(c, rc))) return bad(event, "trailing text");
            ev.op = *kind == Kind::core_dereg ? MrOp::dereg : MrOp::reg;
            ev.mr = id;
            ev.rc = rc;
            return ev;
        }
    }
    return bad(event, "not an MR trace event");
}

Result<std::optional<TraceMrEvent>> parse_mr_trace_line(std::string_view line,
                                                        std::string_view device) {
    auto split = RDMADIAG_TRY(split_ftrace_line(line));
    if (!split) return std::optional<TraceMrEvent>{};
    return parse_mr_trace_event(*split, device);
}

Result<std::optional<TraceMrEvent>> parse_mr_trace_event(const FtraceLine& f,
                                                         std::string_view device) {
    const Known* known = known_of(f.event);
    if (!known) return std::optional<TraceMrEvent>{};
    auto ev = RDMADIAG_TRY(parse_mr_trace_body(f.event, f.body, device));
    TraceMrEvent out;
    out.timestamp = f.timestamp;
    out.event = known->name;  // static: outlives the line
    out.cpu = f.cpu;
    out.mr = std::move(ev);
    return std::optional<TraceMrEvent>{std::move(out)};
}

}  // namespace rdmadiag::tracefs
