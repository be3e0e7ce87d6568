/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * RankInfoDetect: RootInfo based link establishment for HCCL communicators.
 */
#include "rank_info_detect.h"
#include "root_info_detect_provider.h"
#include "log.h"

namespace hccl {

HcclResult RankInfoDetect::Init(const HcclRootInfo &rootInfo, u32 rank, u32 rankSize)
{
    rank_ = rank;
    rankSize_ = rankSize;
    CHK_RET(provider_.Parse(rootInfo, rootIp_, rootPort_));
    return HCCL_SUCCESS;
}

// Every rank connects to the root, sends its RankInfo and receives the full rank table.
// The log keyword "DetectRankTableImpl" marks each connection attempt and its result;
// diagnosis tools parse these lines to rebuild the link topology.
HcclResult RankInfoDetect::DetectRankTableImpl(RankTable_t &rankTable)
{
    HCCL_INFO("DetectRankTableImpl: rank[%u] connect to root %s:%u", rank_, rootIp_.c_str(), rootPort_);
    HcclResult ret = ConnectRoot(detectTimeoutMs_);
    if (ret != HCCL_SUCCESS) {
        HCCL_ERROR("DetectRankTableImpl: rank[%u] connect to root %s:%u failed, ret[%d]", rank_, rootIp_.c_str(), rootPort_, ret);
        return ret;
    }
    HCCL_INFO("DetectRankTableImpl: rank[%u] connect to root %s:%u success", rank_, rootIp_.c_str(), rootPort_);
    CHK_RET(SendRankInfo());
    CHK_RET(RecvRankTable(rankTable));
    return HCCL_SUCCESS;
}

HcclResult RankInfoDetect::ConnectRoot(u32 timeoutMs)
{
    return socket_.Connect(rootIp_, rootPort_, timeoutMs);
}

}  // namespace hccl
