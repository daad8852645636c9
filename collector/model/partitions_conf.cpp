#include "collector/model/partitions_conf.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "collector/common/parse_number.hpp"

namespace rdmadiag {

std::string_view to_string(Membership m) {
    switch (m) {
        case Membership::full:
            return "full";
        case Membership::both:
            return "both";
        case Membership::limited:
            break;
    }
    return "limited";
}

std::string_view to_string(MemberSet s) {
    switch (s) {
        case MemberSet::all:
            return "ALL";
        case MemberSet::all_cas:
            return "ALL_CAS";
        case MemberSet::all_switches:
            return "ALL_SWITCHES";
        case MemberSet::all_routers:
            return "ALL_ROUTERS";
        case MemberSet::self:
            return "SELF";
        case MemberSet::port:
            break;
    }
    return "port";
}

namespace {

std::string_view trim(std::string_view s) {
    constexpr std::string_view kSpace = " \t\r\n\v\f";
    const auto b = s.find_first_not_of(kSpace);
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

// opensm compares a word with what was written over the written length: any prefix matches.
bool abbreviates(std::string_view written, std::string_view word) {
    return word.starts_with(written);
}

}  // namespace

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
    (void)ec;
    return "0x" + std::string(buf, end);
}

// `name[=value]`, each part trimmed.
struct Token {
    std::string_view name;
    std::optional<std::string_view> value;
};

Token split_token(std::string_view t) {
    const auto eq = t.find('=');
    if (eq == std::string_view::npos) return {trim(t), std::nullopt};
    return {trim(t.substr(0, eq)), trim(t.substr(eq + 1))};
}

std::vector<std::string_view> split_commas(std::string_view s) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (;;) {
        const auto comma = s.find(',', start);
        out.push_back(s.substr(start, comma == std::string_view::npos ? s.npos : comma - start));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

// The IPoIB broadcast group's settings: opensm takes them in the definition, and they do not
// bear on membership.
constexpr std::array<std::string_view, 7> kGroupFlags{"mtu",   "rate",   "sl",       "scope",
                                                      "Q_Key", "TClass", "FlowLabel"};

class Parser {
public:
    PartitionsConf run(std::string_view text) {
        uint32_t lineno = 0;
        size_t pos = 0;
        while (pos <= text.size()) {
            const auto nl = text.find('\n', pos);
            std::string_view line =
                text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
            ++lineno;
            if (auto hash = line.find('#'); hash != std::string_view::npos) {
                line = line.substr(0, hash);
            }
            parse_line(line, lineno);
            if (nl == std::string_view::npos) break;
            pos = nl + 1;
        }
        if (open_) {
            warn(statement_line_, "the last statement has no ';' (taken as ended by the file)");
        }
        add_implicit_default();
        std::stable_sort(out_.issues.begin(), out_.issues.end(),
                         [](const ConfIssue& a, const ConfIssue& b) { return a.line < b.line; });
        return std::move(out_);
    }

private:
    void parse_line(std::string_view line, uint32_t lineno) {
        for (;;) {
            const auto semi = line.find(';');
            const std::string_view piece = line.substr(0, semi);
            parse_piece(piece, lineno);
            if (semi == std::string_view::npos) return;
            end_statement();
            line = line.substr(semi + 1);
        }
    }

    // Part of one statement on one line: the definition and ports, or more ports.
    void parse_piece(std::string_view piece, uint32_t lineno) {
        if (skipping_) return;
        if (!open_) {
            if (trim(piece).empty()) return;
            const auto colon = piece.find(':');
            if (colon == std::string_view::npos) {
                // Nothing says where such a statement ends: only this line is lost.
                out_.issues.push_back({lineno, true,
                                       "no partition definition: expected 'Name=PKey[,flags] : "
                                       "ports ;' with its ':' on this line (line skipped)"});
                return;
            }
            if (!open_statement(piece.substr(0, colon), lineno)) return;
            piece = piece.substr(colon + 1);
        }
        for (std::string_view raw : split_commas(piece)) {
            const Token t = split_token(raw);
            if (t.name == "mgid") return;  // a multicast group: the rest of its line
            add_port(t, lineno);
        }
    }

    bool open_statement(std::string_view definition, uint32_t lineno) {
        const auto tokens = split_commas(definition);
        Token head = split_token(tokens.front());
        std::string_view name = head.name;
        std::optional<std::string_view> id = head.value;
        if (!id && !name.empty() && name.front() >= '0' && name.front() <= '9') {
            id = name;
            name = {};
        }
        std::optional<uint16_t> pkey;
        if (id) {
            auto v = common::parse_c_number(*id);
            if (!v) {
                skip(lineno, "bad partition definition: '" + std::string(*id) +
                                 "' is not a P_Key (0x8001, or a decimal number)");
                return false;
            }
            if (*v > 0xffff) {
                warn(lineno, "P_Key " + hex(*v) + " is wider than 16 bits: opensm keeps " +
                                 hex(*v & 0xffff));
            }
            const uint16_t base = pkey_base(static_cast<uint16_t>(*v));
            if (base == 0) {
                warn(lineno, "P_Key " + std::string(*id) +
                                 " has no base (the low 15 bits are 0): the SM generates one");
            } else {
                pkey = base;
            }
        }
        Flags flags;
        for (size_t i = 1; i < tokens.size(); ++i) {
            if (!read_flag(split_token(tokens[i]), lineno, flags)) return false;
        }
        PartitionIntent* p = nullptr;
        if (pkey) {
            if (auto it = by_pkey_.find(*pkey); it != by_pkey_.end())
                p = &out_.partitions[it->second];
        }
        if (!p) {
            PartitionIntent fresh;
            fresh.name = std::string(name);
            fresh.pkey = pkey;
            fresh.line = lineno;
            out_.partitions.push_back(std::move(fresh));
            if (pkey) by_pkey_[*pkey] = out_.partitions.size() - 1;
            p = &out_.partitions.back();
        }
        p->ipoib = p->ipoib || flags.ipoib;
        p->indx0 = p->indx0 || flags.indx0;
        current_ = static_cast<size_t>(p - out_.partitions.data());
        defmember_ = flags.defmember;
        open_ = true;
        statement_line_ = lineno;
        return true;
    }

    struct Flags {
        bool ipoib = false;
        bool indx0 = false;
        Membership defmember = Membership::limited;
    };

    bool read_flag(const Token& t, uint32_t lineno, Flags& flags) {
        if (t.name.empty()) {
            skip(lineno, "bad partition flags: an empty flag between commas");
            return false;
        }
        for (auto word : kGroupFlags) {
            if (abbreviates(t.name, word)) return true;
        }
        if (abbreviates(t.name, "ipoib")) {
            flags.ipoib = true;
        } else if (abbreviates(t.name, "defmember")) {
            const std::string_view v = t.value.value_or("");
            if (!v.empty() && abbreviates(v, "full")) {
                flags.defmember = Membership::full;
            } else if (!v.empty() && abbreviates(v, "both")) {
                flags.defmember = Membership::both;
            } else if (!v.empty() && abbreviates(v, "limited")) {
                flags.defmember = Membership::limited;
            } else {
                warn(lineno, "defmember needs full, limited or both (ignored)");
            }
        } else if (t.name == "indx0") {
            flags.indx0 = true;
        } else {
            warn(lineno, "unknown partition flag '" + std::string(t.name) + "' (ignored)");
        }
        return true;
    }

    void add_port(const Token& t, uint32_t lineno) {
        if (t.name.empty() || abbreviates(t.name, "NONE")) return;
        MemberRule rule;
        rule.line = lineno;
        rule.membership = defmember_;
        if (t.value) {
            const std::string_view v = *t.value;
            // An empty value is a prefix of every word, and opensm tries full first.
            if (abbreviates(v, "full")) {
                rule.membership = Membership::full;
            } else if (abbreviates(v, "both")) {
                rule.membership = Membership::both;
            } else {
                rule.membership = Membership::limited;
                if (!abbreviates(v, "limited")) {
                    warn(lineno, "unknown membership '" + std::string(v) + "' for " +
                                     std::string(t.name) + ": limited, as opensm assumes");
                }
            }
        }
        if (abbreviates(t.name, "ALL")) {
            rule.set = MemberSet::all;
        } else if (abbreviates(t.name, "ALL_CAS")) {
            rule.set = MemberSet::all_cas;
        } else if (abbreviates(t.name, "ALL_SWITCHES")) {
            rule.set = MemberSet::all_switches;
        } else if (abbreviates(t.name, "ALL_ROUTERS")) {
            rule.set = MemberSet::all_routers;
        } else if (abbreviates(t.name, "SELF")) {
            rule.set = MemberSet::self;
        } else {
            auto guid = common::parse_c_number(t.name);
            if (!guid || *guid == 0) {
                out_.issues.push_back(
                    {lineno, true, "bad port GUID '" + std::string(t.name) + "' (skipped)"});
                return;
            }
            rule.guid = *guid;
        }
        out_.partitions[current_].members.push_back(rule);
    }

    void end_statement() {
        open_ = false;
        skipping_ = false;
    }

    // The rest of this statement, up to its ';', is not read.
    void skip(uint32_t lineno, std::string message) {
        out_.issues.push_back({lineno, true, std::move(message) + " (statement skipped)"});
        skipping_ = true;
        open_ = false;
    }

    void warn(uint32_t lineno, std::string message) {
        out_.issues.push_back({lineno, false, std::move(message)});
    }

    void add_implicit_default() {
        if (by_pkey_.contains(kDefaultPartition)) return;
        PartitionIntent d;
        d.name = "Default";
        d.pkey = kDefaultPartition;
        d.implicit = true;
        d.members = {MemberRule{MemberSet::all, 0, Membership::limited, 0},
                     MemberRule{MemberSet::self, 0, Membership::full, 0}};
        out_.partitions.push_back(std::move(d));
    }

    PartitionsConf out_;
    std::map<uint16_t, size_t> by_pkey_;
    size_t current_ = 0;
    Membership defmember_ = Membership::limited;
    bool open_ = false;      // a statement's definition was read, its ';' not yet
    bool skipping_ = false;  // a bad statement's rest, up to its ';'
    uint32_t statement_line_ = 0;
};

}  // namespace

PartitionsConf parse_partitions_conf(std::string_view text) {
    return Parser().run(text);
}

}  // namespace rdmadiag
