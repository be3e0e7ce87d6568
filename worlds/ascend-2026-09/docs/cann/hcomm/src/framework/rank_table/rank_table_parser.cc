/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * RankTableParser: Parses rank table json (version 1.0 and 2.0) into RankTable_t.
 */
#include "log.h"

namespace hccl {

HcclResult RankTableParser::Init()
{
    HCCL_INFO("RankTableParser init");
    return HCCL_SUCCESS;
}

HcclResult RankTableParser::Run(u32 timeoutMs)
{
    // Parses rank table json (version 1.0 and 2.0) into RankTable_t.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
