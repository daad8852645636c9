#pragma once
// An in-memory VerbsBackend: tests decide which devices are listed, what their ports report and
// which async events are waiting, and read back how often contexts were opened, closed and
// events acknowledged.

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "collector/sources/verbs/verbs_backend.hpp"

namespace rdmadiag::testing {

struct FakeDeviceState {
    verbs::VerbsDeviceId id;
    uint32_t ports = 1;
    std::map<uint32_t, verbs::VerbsPortAttributes> attrs;
    std::map<uint32_t, std::vector<uint16_t>> pkeys;
    std::set<uint16_t> unreadable_pkeys;
    std::deque<verbs::RawAsyncEvent> events;
    std::optional<Error> open_error;
    std::optional<Error> read_error;
    std::optional<Error> port_error;

    int opens = 0;
    int closes = 0;
    int delivered = 0;
    int acks = 0;
    bool pending = false;  // delivered, not acked yet
    int fd = -1;           // of the current context
};

class FakeVerbsDevice final : public verbs::VerbsDevice {
public:
    FakeVerbsDevice(std::shared_ptr<FakeDeviceState> s, int fd) : s_(std::move(s)) { s_->fd = fd; }
    ~FakeVerbsDevice() override {
        ack();
        ++s_->closes;
        s_->fd = -1;
    }
    int async_fd() const override { return fd_of(); }
    uint32_t port_count() const override { return s_->ports; }

    Result<std::optional<verbs::RawAsyncEvent>> read_event() override {
        ack();
        if (s_->read_error) return *s_->read_error;
        if (s_->events.empty()) return std::optional<verbs::RawAsyncEvent>{};
        verbs::RawAsyncEvent ev = s_->events.front();
        s_->events.pop_front();
        ++s_->delivered;
        s_->pending = true;
        return std::optional<verbs::RawAsyncEvent>{ev};
    }
    void ack() override {
        if (s_->pending) {
            ++s_->acks;
            s_->pending = false;
        }
    }
    Result<verbs::VerbsPortAttributes> query_port(uint32_t port) override {
        if (s_->port_error) return *s_->port_error;
        return s_->attrs[port];
    }
    Result<uint16_t> query_pkey(uint32_t port, uint16_t index) override {
        if (s_->unreadable_pkeys.count(index) != 0) return make_error("Invalid argument", 22);
        const auto& keys = s_->pkeys[port];
        return index < keys.size() ? keys[index] : uint16_t{0};
    }

private:
    int fd_of() const { return s_->fd; }
    std::shared_ptr<FakeDeviceState> s_;
};

class FakeVerbsBackend final : public verbs::VerbsBackend {
public:
    // Adds a listed device with `ports` active Ethernet ports and one P_Key (0xffff) each.
    std::shared_ptr<FakeDeviceState> add(const std::string& name, uint32_t ports = 1,
                                         const std::string& identity = "") {
        auto s = std::make_shared<FakeDeviceState>();
        s->id = verbs::VerbsDeviceId{name, identity.empty() ? "uverbs-" + name : identity};
        s->ports = ports;
        for (uint32_t p = 1; p <= ports; ++p) {
            verbs::VerbsPortAttributes a;
            a.state = 4;
            a.phys_state = 5;
            a.link_layer = 2;
            a.active_width = 1;
            a.active_speed = 1;
            a.pkey_tbl_len = 2;
            s->attrs[p] = a;
            s->pkeys[p] = {0xffff, 0x0000};
        }
        listed.push_back(s);
        return s;
    }
    void remove(const std::string& name) {
        std::erase_if(listed, [&](const auto& s) { return s->id.name == name; });
    }

    Result<std::vector<verbs::VerbsDeviceId>> list_devices() override {
        ++lists;
        if (list_error) return *list_error;
        std::vector<verbs::VerbsDeviceId> out;
        for (const auto& s : listed) out.push_back(s->id);
        return out;
    }
    Result<std::unique_ptr<verbs::VerbsDevice>> open(const verbs::VerbsDeviceId& id) override {
        for (const auto& s : listed) {
            if (s->id != id) continue;
            if (s->open_error) return *s->open_error;
            ++s->opens;
            return std::unique_ptr<verbs::VerbsDevice>(
                std::make_unique<FakeVerbsDevice>(s, next_fd++));
        }
        return make_error("device is gone", 19);
    }

    std::vector<std::shared_ptr<FakeDeviceState>> listed;
    std::optional<Error> list_error;
    int lists = 0;
    int next_fd = 100;
};

}  // namespace rdmadiag::testing
