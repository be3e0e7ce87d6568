/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * NotifyPool: Pool of device notify objects shared by communicators.
 */
#include "log.h"

namespace hccl {

HcclResult NotifyPool::Init()
{
    HCCL_INFO("NotifyPool init");
    return HCCL_SUCCESS;
}

HcclResult NotifyPool::Run(u32 timeoutMs)
{
    // Pool of device notify objects shared by communicators.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
