/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * TopoDetect: Detects server and super pod topology from device info.
 */
#include "log.h"

namespace hccl {

HcclResult TopoDetect::Init()
{
    HCCL_INFO("TopoDetect init");
    return HCCL_SUCCESS;
}

HcclResult TopoDetect::Run(u32 timeoutMs)
{
    // Detects server and super pod topology from device info.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
