/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * CommConfig: Reads HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT and buffer size settings.
 */
#include "log.h"

namespace hccl {

HcclResult CommConfig::Init()
{
    HCCL_INFO("CommConfig init");
    return HCCL_SUCCESS;
}

HcclResult CommConfig::Run(u32 timeoutMs)
{
    // Reads HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT and buffer size settings.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
